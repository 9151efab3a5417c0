/*
 * rial_jpeg: JPEG decode and encode through libjpeg-turbo's jpeglib API.
 *
 * Every libjpeg call happens inside a C function of this file that first arms a
 * setjmp-based error manager, so library errors (which by default call exit()) come
 * back as a status code plus libjpeg's own message text. No longjmp ever crosses a
 * Swift frame: nothing in this API calls back into the caller.
 *
 * This header deliberately does not include jpeglib.h: the decoder is an opaque
 * handle and all types are plain fixed-width integers, so Swift sees a small surface.
 */
#ifndef RIAL_JPEG_H
#define RIAL_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes returned by every function below. */
enum {
  RIAL_JPEG_OK = 0,
  /* The data is not a valid JPEG stream (bad marker, truncated, bad Huffman code). */
  RIAL_JPEG_CORRUPT = 1,
  /* Valid JPEG using a feature libjpeg-turbo (8-bit build) cannot decode: 12-bit or
   * lossless process, a colour space with no RGB conversion. */
  RIAL_JPEG_UNSUPPORTED = 2,
  /* The caller passed a bad parameter (scale, quality, buffer size, call order). */
  RIAL_JPEG_INVALID_ARGUMENT = 3,
  /* Image larger than the configured pixel limit, or the progressive scan limit. */
  RIAL_JPEG_TOO_LARGE = 4,
  /* malloc failed inside libjpeg or this file. */
  RIAL_JPEG_OUT_OF_MEMORY = 5
};

/* Colour space of the coded data as libjpeg infers it from the JFIF/Adobe markers. */
enum {
  RIAL_JPEG_CS_UNKNOWN = 0,
  RIAL_JPEG_CS_GRAY = 1,
  RIAL_JPEG_CS_YCBCR = 2,
  RIAL_JPEG_CS_RGB = 3,
  RIAL_JPEG_CS_CMYK = 4,
  RIAL_JPEG_CS_YCCK = 5
};

/* Requested decoder output. */
enum {
  RIAL_JPEG_OUTPUT_RGB = 0, /* 3 bytes per pixel, R G B */
  RIAL_JPEG_OUTPUT_GRAY = 1 /* 1 byte per pixel */
};

/* What to do with libjpeg warnings (recoverable corrupt-data conditions). */
enum {
  /* Default: "Premature end of JPEG file" is an error; other warnings are counted. */
  RIAL_JPEG_WARN_REJECT_TRUNCATED = 0,
  /* Every warning is an error (strict validation). */
  RIAL_JPEG_WARN_REJECT_ALL = 1,
  /* No warning is an error (djpeg's behaviour); missing data decodes as flat gray. */
  RIAL_JPEG_WARN_ACCEPT_ALL = 2
};

/* Chroma subsampling for the encoder (ignored for gray input). */
enum {
  RIAL_JPEG_SUBSAMPLING_420 = 0,
  RIAL_JPEG_SUBSAMPLING_444 = 1
};

/* Header facts, filled by rial_jpeg_decoder_read_header. */
typedef struct {
  uint32_t width;          /* image width in pixels (SOF) */
  uint32_t height;         /* image height in pixels (SOF) */
  int32_t components;      /* number of colour components (1, 3 or 4 in practice) */
  int32_t color_space;     /* RIAL_JPEG_CS_* */
  int32_t progressive;     /* 1 for a progressive (SOF2/SOF6/SOF10) file */
  int32_t arithmetic;      /* 1 when arithmetic coded */
  int32_t has_jfif_marker; /* APP0 JFIF present */
  int32_t has_adobe_marker;/* APP14 Adobe present */
  int32_t adobe_transform; /* Adobe transform flag (0, 1 or 2); 0 when no marker */
} rial_jpeg_info;

/* Decode parameters. */
typedef struct {
  int32_t scale_denom;     /* 1, 2, 4 or 8: output is ceil(width / scale_denom) wide */
  int32_t output;          /* RIAL_JPEG_OUTPUT_* */
  int32_t warning_policy;  /* RIAL_JPEG_WARN_* */
  int32_t max_scans;       /* refuse progressive files with more scans; <= 0: no limit */
  uint64_t max_pixels;     /* refuse width*height above this; 0: no limit */
} rial_jpeg_decode_params;

/* Output geometry, filled by rial_jpeg_decoder_prepare. */
typedef struct {
  uint32_t width;
  uint32_t height;
  int32_t channels;        /* 3 for RGB, 1 for gray */
  uint64_t byte_count;     /* width * height * channels */
} rial_jpeg_output_size;

/* Opaque decoder session: create, read_header, [prepare, read_pixels], destroy. */
typedef struct rial_jpeg_decoder rial_jpeg_decoder;

/* Allocates a decoder. Returns NULL when out of memory. */
rial_jpeg_decoder *rial_jpeg_decoder_create(void);

/* Frees the decoder and everything libjpeg allocated for it. NULL is ignored. */
void rial_jpeg_decoder_destroy(rial_jpeg_decoder *decoder);

/*
 * Parses the markers up to the first scan of `data` (not copied: it must stay valid
 * until the decoder is destroyed) and fills `info`. Does not decode any pixels.
 * `params` is copied; its warning policy already applies to the header.
 */
int rial_jpeg_decoder_read_header(rial_jpeg_decoder *decoder, const uint8_t *data,
                                  size_t size, const rial_jpeg_decode_params *params,
                                  rial_jpeg_info *info);

/*
 * Checks the pixel limit and scale, chooses the output colour space and computes the
 * output size (libjpeg: ceil(width * 1 / scale_denom)). No pixel data is decoded.
 */
int rial_jpeg_decoder_prepare(rial_jpeg_decoder *decoder, rial_jpeg_output_size *size);

/*
 * Decodes all pixels into `destination`, which must hold exactly `byte_count` bytes
 * (rows top to bottom, no padding). Scanlines are written straight into it, several
 * rows per jpeg_read_scanlines call; only CMYK/YCCK input goes through a strip buffer
 * for the CMYK -> RGB conversion.
 */
int rial_jpeg_decoder_read_pixels(rial_jpeg_decoder *decoder, uint8_t *destination,
                                  size_t byte_count);

/* Called after each batch of output rows with the number of rows now complete
 * (rows 0..rows_done-1 are in the destination). It must return normally: it runs
 * inside the decoder's setjmp scope, so it must not call back into the decoder. */
typedef void (*rial_jpeg_rows_callback)(void *context, uint32_t rows_done);

/*
 * rial_jpeg_decoder_read_pixels, calling `rows_done` (when not NULL) after every
 * jpeg_read_scanlines call, so that another thread can read the finished rows while
 * the rest decode. On failure the rows after the last reported count are unspecified.
 */
int rial_jpeg_decoder_read_pixels_reporting(rial_jpeg_decoder *decoder, uint8_t *destination,
                                            size_t byte_count, rial_jpeg_rows_callback rows_done,
                                            void *context);

/* The error message of the last failed call, "" when none. Owned by the decoder. */
const char *rial_jpeg_decoder_message(const rial_jpeg_decoder *decoder);

/* Number of libjpeg warnings seen so far, and the first one's text ("" when none). */
int32_t rial_jpeg_decoder_warning_count(const rial_jpeg_decoder *decoder);
const char *rial_jpeg_decoder_first_warning(const rial_jpeg_decoder *decoder);

/* 1 when libjpeg reported "Premature end of JPEG file" (the data ended early). */
int32_t rial_jpeg_decoder_truncated(const rial_jpeg_decoder *decoder);

/*
 * Encodes an interleaved 8-bit image (channels 1 = gray, 3 = RGB; rows top to bottom,
 * no padding) to JPEG. quality 1...100 (libjpeg's IJG scale, jpeg_set_quality with
 * baseline-compatible tables); progressive uses jpeg_simple_progression.
 * On success *out_data is a malloc'd buffer of *out_size bytes the caller frees with
 * rial_jpeg_free. On failure `message` (capacity bytes, may be NULL) receives the text.
 */
int rial_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height,
                     int32_t channels, int32_t quality, int32_t progressive,
                     int32_t subsampling, uint8_t **out_data, size_t *out_size,
                     char *message, size_t message_capacity);

/*
 * Test-fixture encoder: 4-channel CMYK input written as a CMYK (as_ycck = 0) or YCCK
 * (as_ycck = 1) JPEG, all components sampled 1x1. write_adobe_marker = 0 omits the
 * APP14 marker (only allowed for CMYK; YCCK is only recognisable through it). The
 * samples are written exactly as given: inverting them (the Adobe convention) is the
 * caller's business.
 */
int rial_jpeg_encode_cmyk(const uint8_t *pixels, uint32_t width, uint32_t height,
                          int32_t quality, int32_t as_ycck, int32_t write_adobe_marker,
                          uint8_t **out_data, size_t *out_size,
                          char *message, size_t message_capacity);

/* Frees a buffer returned by the encoders. */
void rial_jpeg_free(void *buffer);

/* LIBJPEG_TURBO_VERSION_NUMBER of the headers compiled against, e.g. 2001005. */
int32_t rial_jpeg_library_version(void);

#ifdef __cplusplus
}
#endif

#endif /* RIAL_JPEG_H */
