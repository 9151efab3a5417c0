/*
 * rial_video: MP4/MOV video decode and H.264 encode through FFmpeg's libavformat,
 * libavcodec, libavutil and libswscale.
 *
 * FFmpeg reports failures as negative return codes, never by exit() or longjmp; this
 * file turns each into a status code plus one line of text (what failed, FFmpeg's
 * av_strerror text, and the last error FFmpeg logged on the calling thread). Every
 * FFmpeg object a handle owns is freed by its close function, on every path; a
 * function that fails leaves the handle closable and nothing else allocated.
 *
 * This header does not include FFmpeg's headers: the handles are opaque and every type
 * is a plain integer or char array, so Swift sees a small surface.
 */
#ifndef RIAL_VIDEO_H
#define RIAL_VIDEO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes returned by every function below. */
enum {
  RIAL_VIDEO_OK = 0,
  /* rial_video_decoder_next: no more frames (not an error). */
  RIAL_VIDEO_END = 1,
  /* The file does not exist. */
  RIAL_VIDEO_NOT_FOUND = 2,
  /* The file exists but cannot be read (permissions, a directory, I/O error). */
  RIAL_VIDEO_UNREADABLE = 3,
  /* Not a container FFmpeg recognises, or damaged / truncated data. */
  RIAL_VIDEO_CORRUPT = 4,
  /* Valid file this code does not handle: no video stream, no decoder or encoder. */
  RIAL_VIDEO_UNSUPPORTED = 5,
  /* Bad parameter from the caller (buffer size, frame size, call order). */
  RIAL_VIDEO_INVALID_ARGUMENT = 6,
  /* An allocation failed. */
  RIAL_VIDEO_OUT_OF_MEMORY = 7,
  /* Writing the output file failed. */
  RIAL_VIDEO_WRITE_FAILED = 8
};

/* Output layouts of rial_video_decoder_next. */
enum {
  /* YCbCr 4:2:0 bi-planar: width*height luma bytes, then width*height/2 bytes of
   * interleaved Cb Cr at half resolution in both directions (width, height even). */
  RIAL_VIDEO_OUTPUT_NV12 = 0,
  /* Luma only: width*height bytes. */
  RIAL_VIDEO_OUTPUT_LUMA = 1
};

/* Longest text any function writes into its message buffer, terminator included. */
#define RIAL_VIDEO_MESSAGE_SIZE 512

/* What the container says about the video stream. */
typedef struct {
  int32_t width;            /* coded picture width in pixels */
  int32_t height;           /* coded picture height in pixels */
  int32_t fps_num;          /* average frame rate as a fraction; 0/0 when unknown */
  int32_t fps_den;
  int64_t frame_count;      /* frames the container lists; -1 when it does not say */
  double duration;          /* seconds; negative when unknown */
  int32_t rotation;         /* clockwise degrees to display upright: 0, 90, 180, 270 */
  int64_t bit_rate;         /* bits per second of the stream; 0 when unknown */
  int32_t stream_index;     /* index of the video stream in the container */
  int32_t stream_count;     /* streams in the container (audio, metadata included) */
  char codec[32];           /* FFmpeg codec name: "h264", "hevc", ... */
  char profile[32];         /* codec profile, "" when unknown */
  char pixel_format[32];    /* decoder pixel format: "yuv420p", "yuv420p10le", ... */
  char container[64];       /* demuxer name: "mov,mp4,m4a,3gp,3g2,mj2" */
} rial_video_info;

typedef struct rial_video_decoder rial_video_decoder;

/* Opens `path`, picks its best video stream and opens a decoder for it with `threads`
 * decoding threads (0: FFmpeg's choice, 1: one core). On success `*out` is a handle
 * for rial_video_decoder_close and `*info` describes the stream; on failure `*out` is
 * NULL and `message` says why. `strict` nonzero makes the decoder fail on damaged
 * data instead of concealing it, and at the end on fewer frames than the container
 * lists. */
int rial_video_decoder_open(const char *path, int32_t threads, int32_t strict, rial_video_decoder **out,
                            rial_video_info *info, char *message, size_t message_size);

/* Decodes the next frame in presentation order into `buffer` (`buffer_size` must be
 * width*height*3/2 for NV12, width*height for luma) and its presentation time in
 * seconds into `*pts_seconds`. Returns RIAL_VIDEO_END after the last frame. Frames
 * whose size differs from the stream's are an error. */
int rial_video_decoder_next(rial_video_decoder *decoder, int32_t output, uint8_t *buffer, size_t buffer_size,
                            double *pts_seconds, char *message, size_t message_size);

/* Frees the decoder and everything it holds. NULL is allowed. */
void rial_video_decoder_close(rial_video_decoder *decoder);

/* Rate control of the encoder. */
enum {
  RIAL_VIDEO_RATE_CRF = 0,      /* constant rate factor (quality) */
  RIAL_VIDEO_RATE_BIT_RATE = 1, /* average bit rate */
  RIAL_VIDEO_RATE_QP = 2        /* constant quantiser (x264 then turns off adaptive quantisation and mb-tree) */
};

/* Encoder settings. */
typedef struct {
  int32_t fps_num;          /* frame rate as a fraction, e.g. 30/1 or 30000/1001 */
  int32_t fps_den;
  int32_t rate_mode;        /* RIAL_VIDEO_RATE_* */
  double crf;               /* RIAL_VIDEO_RATE_CRF: x264 constant rate factor (0...51) */
  int64_t bit_rate;         /* RIAL_VIDEO_RATE_BIT_RATE: target bits per second */
  int32_t qp;               /* RIAL_VIDEO_RATE_QP: constant quantiser (0...51) */
  int32_t gop_size;         /* frames between keyframes; 0: encoder default */
  int32_t max_b_frames;     /* negative: encoder default */
  int32_t threads;          /* encoder threads; 0: encoder's choice */
  int32_t rotation;         /* clockwise display rotation stored in the file: 0/90/180/270 */
  char preset[32];          /* x264 preset, "" for the default ("medium") */
  char encoder[32];         /* encoder name, "" for "libx264" */
} rial_video_encoder_options;

typedef struct rial_video_encoder rial_video_encoder;

/* Creates `path` (the container follows the extension: .mp4, .mov) for H.264 frames
 * of width x height (both even). */
int rial_video_encoder_open(const char *path, int32_t width, int32_t height, const rial_video_encoder_options *options,
                            rial_video_encoder **out, char *message, size_t message_size);

/* Encodes one NV12 frame (width*height*3/2 bytes); frame n gets time n / fps. */
int rial_video_encoder_write_nv12(rial_video_encoder *encoder, const uint8_t *nv12, size_t size, char *message,
                                  size_t message_size);

/* Flushes the encoder and writes the container trailer; the file is complete after
 * RIAL_VIDEO_OK. Call once, then close. */
int rial_video_encoder_finish(rial_video_encoder *encoder, char *message, size_t message_size);

/* Frees the encoder and closes the file (incomplete unless finish succeeded). NULL is
 * allowed. */
void rial_video_encoder_close(rial_video_encoder *encoder);

/* 1 when libavcodec has an encoder of this name (e.g. "libx264"), else 0. */
int rial_video_has_encoder(const char *name);

/* FFmpeg library versions, e.g. "libavformat 59.27.100, libavcodec 59.37.100". */
void rial_video_library_versions(char *buffer, size_t size);

#ifdef __cplusplus
}
#endif

#endif
