/*
 * rial_video: see include/rial_video.h. Ownership: every handle is one struct whose
 * close function frees each FFmpeg object it may hold (the free functions accept
 * NULL), so an open that fails half-way closes its partial handle and returns.
 */
#include "rial_video.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/* ---- FFmpeg's log: silenced, the last error kept per thread for messages ---- */

static _Thread_local char last_log[256];
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void log_callback(void *avcl, int level, const char *fmt, va_list vl) {
  if (level > AV_LOG_ERROR) return;
  int print_prefix = 0;
  char line[256];
  av_log_format_line2(avcl, level, fmt, vl, line, sizeof line, &print_prefix);
  size_t n = strlen(line);
  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = 0;
  if (n > 0) memcpy(last_log, line, n + 1);
}

static void install_log(void) { av_log_set_callback(log_callback); }

static void begin_call(void) {
  pthread_once(&log_once, install_log);
  last_log[0] = 0;
}

/* Writes "<what>: <FFmpeg error text> (FFmpeg: <last logged error>)" into message. */
static int fail(int status, int averror, char *message, size_t size, const char *fmt, ...) {
  if (!message || size == 0) return status;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  char err[128] = "";
  if (averror < 0) av_strerror(averror, err, sizeof err);
  int has_log = last_log[0] != 0 && strstr(what, last_log) == NULL && strcmp(err, last_log) != 0;
  snprintf(message, size, "%s%s%s%s%s%s", what, err[0] ? ": " : "", err, has_log ? " (FFmpeg: " : "",
           has_log ? last_log : "", has_log ? ")" : "");
  return status;
}

/* The status for an error from avformat/avio: missing file, I/O, else damaged data. */
static int status_for(int averror) {
  if (averror == AVERROR(ENOMEM)) return RIAL_VIDEO_OUT_OF_MEMORY;
  if (averror == AVERROR(ENOENT)) return RIAL_VIDEO_NOT_FOUND;
  if (averror == AVERROR(EACCES) || averror == AVERROR(EIO) || averror == AVERROR(EISDIR) ||
      averror == AVERROR(EPERM))
    return RIAL_VIDEO_UNREADABLE;
  if (averror == AVERROR_DECODER_NOT_FOUND || averror == AVERROR_PATCHWELCOME) return RIAL_VIDEO_UNSUPPORTED;
  return RIAL_VIDEO_CORRUPT;
}

static void copy_name(char *dst, size_t size, const char *src) {
  snprintf(dst, size, "%s", src ? src : "");
}

/* ---- decoder ---- */

/* The demuxer FFmpeg reads MP4 and MOV (QuickTime) files with. */
#define MOV_DEMUXER "mov,mp4,m4a,3gp,3g2,mj2"

struct rial_video_decoder {
  AVFormatContext *format;
  AVCodecContext *codec;
  AVPacket *packet;
  AVFrame *frame;
  struct SwsContext *sws;
  int stream_index;
  int width, height;
  AVRational time_base;
  double frame_duration;
  double last_pts;
  int64_t frames;
  int64_t listed; /* frames the container lists; -1 unknown */
  int strict;
  int draining;
};

/* The end of the stream: in strict mode every frame the container lists must have
 * decoded (a damaged index or sample table otherwise ends a recording early, silently). */
static int end_of_stream(rial_video_decoder *d, char *message, size_t message_size) {
  if (d->strict && d->listed > 0 && d->frames < d->listed)
    return fail(RIAL_VIDEO_CORRUPT, 0, message, message_size, "only %lld of the %lld frames the container lists decoded",
                (long long)d->frames, (long long)d->listed);
  return RIAL_VIDEO_END;
}

void rial_video_decoder_close(rial_video_decoder *d) {
  if (!d) return;
  sws_freeContext(d->sws);
  av_frame_free(&d->frame);
  av_packet_free(&d->packet);
  avcodec_free_context(&d->codec);
  avformat_close_input(&d->format);
  av_free(d);
}

static int rotation_of(const AVStream *stream) {
  size_t size = 0;
  const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
  if (!matrix || size < 9 * sizeof(int32_t)) return 0;
  double angle = -av_display_rotation_get((const int32_t *)matrix); /* clockwise */
  if (!isfinite(angle)) return 0;
  long quarter = lround(angle / 90.0);
  return (int)(((quarter % 4) + 4) % 4) * 90;
}

int rial_video_decoder_open(const char *path, int32_t threads, int32_t strict, rial_video_decoder **out,
                            rial_video_info *info, char *message, size_t message_size) {
  begin_call();
  if (!out || !info || !path) return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "null argument");
  *out = NULL;
  memset(info, 0, sizeof *info);
  if (threads < 0 || threads > 64)
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "threads must be in 0...64, got %d", threads);

  struct stat st;
  if (stat(path, &st) != 0) {
    int e = errno;
    return fail(e == ENOENT || e == ENOTDIR ? RIAL_VIDEO_NOT_FOUND : RIAL_VIDEO_UNREADABLE, 0, message, message_size,
                e == ENOENT || e == ENOTDIR ? "no such file" : "cannot open: %s", strerror(e));
  }
  if (S_ISDIR(st.st_mode)) return fail(RIAL_VIDEO_UNREADABLE, 0, message, message_size, "is a directory");
  if (access(path, R_OK) != 0)
    return fail(RIAL_VIDEO_UNREADABLE, 0, message, message_size, "cannot open: %s", strerror(errno));
  if (st.st_size == 0) return fail(RIAL_VIDEO_CORRUPT, 0, message, message_size, "file is empty");

  rial_video_decoder *d = av_mallocz(sizeof *d);
  if (!d) return fail(RIAL_VIDEO_OUT_OF_MEMORY, 0, message, message_size, "out of memory");
  d->stream_index = -1;

  /* Local files only (a path must never make FFmpeg open a network URL), and only the
   * MP4/MOV demuxer: other formats are refused before their demuxer parses anything. */
  AVDictionary *options = NULL;
  av_dict_set(&options, "protocol_whitelist", "file", 0);
  av_dict_set(&options, "format_whitelist", MOV_DEMUXER, 0);
  char url[4096];
  if (snprintf(url, sizeof url, "file:%s", path) >= (int)sizeof url) {
    av_dict_free(&options);
    rial_video_decoder_close(d);
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "path too long");
  }
  int ret = avformat_open_input(&d->format, url, NULL, &options);
  av_dict_free(&options);
  if (ret < 0) {
    int status = status_for(ret);
    rial_video_decoder_close(d);
    /* A header cut short, or a box claiming more memory than exists: damaged data. */
    if (ret == AVERROR_EOF || status == RIAL_VIDEO_OUT_OF_MEMORY)
      return fail(RIAL_VIDEO_CORRUPT, ret, message, message_size, "damaged or truncated MP4/MOV container");
    if (ret == AVERROR(EINVAL) && strstr(last_log, "whitelist")) {
      const char *quote = strchr(last_log, '\'');
      char detected[64] = "";
      if (quote) snprintf(detected, sizeof detected, "%s", quote + 1);
      char *end = strchr(detected, '\'');
      if (end) *end = 0;
      last_log[0] = 0;
      return fail(RIAL_VIDEO_UNSUPPORTED, 0, message, message_size, "not an MP4 or MOV video (FFmpeg reads it as %s)",
                  detected[0] ? detected : "another format");
    }
    if (status == RIAL_VIDEO_CORRUPT) {
      /* The MP4/MOV demuxer logs why it gave up ("moov atom not found" for a file cut
       * before its index); nothing is logged when no demuxer recognised the bytes. */
      if (ret == AVERROR_INVALIDDATA && last_log[0])
        return fail(status, 0, message, message_size, "damaged or truncated MP4/MOV container");
      return fail(status, 0, message, message_size, "not an MP4 or MOV video (%s)",
                  ret == AVERROR_INVALIDDATA ? "no container format FFmpeg recognises" : av_err2str(ret));
    }
    return fail(status, ret, message, message_size, "cannot open");
  }
  ret = avformat_find_stream_info(d->format, NULL);
  if (ret < 0) {
    int status = status_for(ret);
    rial_video_decoder_close(d);
    return fail(status, ret, message, message_size, "cannot read the stream information");
  }
  const AVCodec *decoder = NULL;
  ret = av_find_best_stream(d->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  if (ret < 0) {
    int status = RIAL_VIDEO_UNSUPPORTED;
    if (ret == AVERROR_DECODER_NOT_FOUND) {
      int any = av_find_best_stream(d->format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
      const char *name = any >= 0 ? avcodec_get_name(d->format->streams[any]->codecpar->codec_id) : "?";
      rial_video_decoder_close(d);
      return fail(status, 0, message, message_size, "no decoder in this libavcodec for the video codec '%s'", name);
    }
    const char *container = d->format->iformat ? d->format->iformat->name : "?";
    unsigned streams = d->format->nb_streams;
    rial_video_decoder_close(d);
    return fail(status, 0, message, message_size, "no video stream (container %s, %u stream%s)", container, streams,
                streams == 1 ? "" : "s");
  }
  d->stream_index = ret;
  AVStream *stream = d->format->streams[ret];
  const AVCodecParameters *par = stream->codecpar;
  if (par->width <= 0 || par->height <= 0) {
    rial_video_decoder_close(d);
    return fail(RIAL_VIDEO_CORRUPT, 0, message, message_size, "the video stream has no picture size");
  }
  if (par->width % 2 || par->height % 2) {
    int w = par->width, h = par->height;
    rial_video_decoder_close(d);
    return fail(RIAL_VIDEO_UNSUPPORTED, 0, message, message_size,
                "odd picture size %dx%d (NV12 frames need an even width and height)", w, h);
  }
  d->codec = avcodec_alloc_context3(decoder);
  d->packet = av_packet_alloc();
  d->frame = av_frame_alloc();
  if (!d->codec || !d->packet || !d->frame) {
    rial_video_decoder_close(d);
    return fail(RIAL_VIDEO_OUT_OF_MEMORY, 0, message, message_size, "out of memory");
  }
  ret = avcodec_parameters_to_context(d->codec, par);
  if (ret < 0) {
    rial_video_decoder_close(d);
    return fail(status_for(ret), ret, message, message_size, "bad codec parameters");
  }
  d->codec->thread_count = threads;
  d->codec->pkt_timebase = stream->time_base;
  if (strict) d->codec->err_recognition |= AV_EF_EXPLODE;
  ret = avcodec_open2(d->codec, decoder, NULL);
  if (ret < 0) {
    rial_video_decoder_close(d);
    return fail(status_for(ret), ret, message, message_size, "cannot open the %s decoder", decoder->name);
  }
  d->width = par->width;
  d->height = par->height;
  d->time_base = stream->time_base;

  AVRational rate = stream->avg_frame_rate;
  if (rate.num <= 0 || rate.den <= 0) rate = stream->r_frame_rate;
  if (rate.num <= 0 || rate.den <= 0) rate = (AVRational){0, 0};
  d->frame_duration = rate.num > 0 ? (double)rate.den / rate.num : 0;

  info->width = par->width;
  info->height = par->height;
  info->fps_num = rate.num;
  info->fps_den = rate.den;
  info->frame_count = stream->nb_frames > 0 ? stream->nb_frames : -1;
  d->listed = info->frame_count;
  d->strict = strict != 0;
  if (stream->duration != AV_NOPTS_VALUE && stream->duration > 0 && stream->time_base.den > 0)
    info->duration = stream->duration * av_q2d(stream->time_base);
  else if (d->format->duration != AV_NOPTS_VALUE && d->format->duration > 0)
    info->duration = (double)d->format->duration / AV_TIME_BASE;
  else
    info->duration = -1;
  info->rotation = rotation_of(stream);
  info->bit_rate = par->bit_rate > 0 ? par->bit_rate : 0;
  info->stream_index = d->stream_index;
  info->stream_count = (int32_t)d->format->nb_streams;
  copy_name(info->codec, sizeof info->codec, avcodec_get_name(par->codec_id));
  copy_name(info->profile, sizeof info->profile, avcodec_profile_name(par->codec_id, par->profile));
  copy_name(info->pixel_format, sizeof info->pixel_format, av_get_pix_fmt_name((enum AVPixelFormat)par->format));
  copy_name(info->container, sizeof info->container, d->format->iformat->name);
  d->last_pts = NAN;
  *out = d;
  return RIAL_VIDEO_OK;
}

/* Copies the decoded frame into `buffer` in the requested layout. */
static int convert(rial_video_decoder *d, const AVFrame *f, int output, uint8_t *buffer, char *message,
                   size_t message_size) {
  const int w = d->width, h = d->height;
  if (f->width != w || f->height != h)
    return fail(RIAL_VIDEO_UNSUPPORTED, 0, message, message_size, "frame %lld is %dx%d, the stream %dx%d",
                (long long)d->frames, f->width, f->height, w, h);
  const enum AVPixelFormat format = (enum AVPixelFormat)f->format;
  const int planar420 = format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P;
  if (planar420 || format == AV_PIX_FMT_NV12 || (output == RIAL_VIDEO_OUTPUT_LUMA && format == AV_PIX_FMT_GRAY8)) {
    for (int y = 0; y < h; y++) memcpy(buffer + (size_t)y * w, f->data[0] + (ptrdiff_t)y * f->linesize[0], w);
    if (output == RIAL_VIDEO_OUTPUT_LUMA) return RIAL_VIDEO_OK;
    uint8_t *uv = buffer + (size_t)w * h;
    const int cw = w / 2, ch = h / 2;
    if (format == AV_PIX_FMT_NV12) {
      for (int y = 0; y < ch; y++) memcpy(uv + (size_t)y * w, f->data[1] + (ptrdiff_t)y * f->linesize[1], w);
      return RIAL_VIDEO_OK;
    }
    for (int y = 0; y < ch; y++) {
      const uint8_t *u = f->data[1] + (ptrdiff_t)y * f->linesize[1];
      const uint8_t *v = f->data[2] + (ptrdiff_t)y * f->linesize[2];
      uint8_t *row = uv + (size_t)y * w;
      for (int x = 0; x < cw; x++) {
        row[2 * x] = u[x];
        row[2 * x + 1] = v[x];
      }
    }
    return RIAL_VIDEO_OK;
  }
  /* Any other layout (10-bit, 4:2:2, 4:4:4): swscale converts without resizing. */
  const enum AVPixelFormat target = output == RIAL_VIDEO_OUTPUT_LUMA ? AV_PIX_FMT_GRAY8 : AV_PIX_FMT_NV12;
  d->sws = sws_getCachedContext(d->sws, w, h, format, w, h, target, SWS_POINT, NULL, NULL, NULL);
  if (!d->sws)
    return fail(RIAL_VIDEO_UNSUPPORTED, 0, message, message_size, "cannot convert pixel format %s to %s",
                av_get_pix_fmt_name(format) ? av_get_pix_fmt_name(format) : "?", av_get_pix_fmt_name(target));
  uint8_t *planes[4] = {buffer, buffer + (size_t)w * h, NULL, NULL};
  int strides[4] = {w, w, 0, 0};
  int rows = sws_scale(d->sws, (const uint8_t *const *)f->data, f->linesize, 0, h, planes, strides);
  if (rows != h)
    return fail(RIAL_VIDEO_UNSUPPORTED, rows < 0 ? rows : 0, message, message_size,
                "pixel format conversion of frame %lld failed", (long long)d->frames);
  return RIAL_VIDEO_OK;
}

int rial_video_decoder_next(rial_video_decoder *d, int32_t output, uint8_t *buffer, size_t buffer_size,
                            double *pts_seconds, char *message, size_t message_size) {
  begin_call();
  if (!d || !buffer || !pts_seconds)
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "null argument");
  const size_t luma = (size_t)d->width * d->height;
  const size_t need = output == RIAL_VIDEO_OUTPUT_LUMA ? luma : luma + luma / 2;
  if ((output != RIAL_VIDEO_OUTPUT_NV12 && output != RIAL_VIDEO_OUTPUT_LUMA) || buffer_size != need)
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "output buffer is %zu bytes, need %zu",
                buffer_size, need);
  for (;;) {
    int ret = avcodec_receive_frame(d->codec, d->frame);
    if (ret == 0) {
      int status = convert(d, d->frame, output, buffer, message, message_size);
      int64_t ts = d->frame->best_effort_timestamp;
      av_frame_unref(d->frame);
      if (status != RIAL_VIDEO_OK) return status;
      double pts;
      if (ts != AV_NOPTS_VALUE)
        pts = ts * av_q2d(d->time_base);
      else
        pts = isnan(d->last_pts) ? 0 : d->last_pts + d->frame_duration;
      d->last_pts = pts;
      *pts_seconds = pts;
      d->frames++;
      return RIAL_VIDEO_OK;
    }
    if (ret == AVERROR_EOF) return end_of_stream(d, message, message_size);
    if (ret != AVERROR(EAGAIN))
      return fail(status_for(ret) == RIAL_VIDEO_OUT_OF_MEMORY ? RIAL_VIDEO_OUT_OF_MEMORY : RIAL_VIDEO_CORRUPT, ret,
                  message, message_size, "decoding failed after %lld frames", (long long)d->frames);
    if (d->draining) return end_of_stream(d, message, message_size);
    ret = av_read_frame(d->format, d->packet);
    if (ret == AVERROR_EOF) {
      d->draining = 1;
      ret = avcodec_send_packet(d->codec, NULL);
      if (ret < 0 && ret != AVERROR_EOF)
        return fail(RIAL_VIDEO_CORRUPT, ret, message, message_size, "decoding failed after %lld frames",
                    (long long)d->frames);
      continue;
    }
    if (ret < 0) {
      int status = status_for(ret);
      if (status == RIAL_VIDEO_NOT_FOUND) status = RIAL_VIDEO_UNREADABLE;
      return fail(status, ret, message, message_size, "reading the container failed after %lld frames",
                  (long long)d->frames);
    }
    if (d->packet->stream_index != d->stream_index) {
      av_packet_unref(d->packet);
      continue;
    }
    ret = avcodec_send_packet(d->codec, d->packet);
    av_packet_unref(d->packet);
    if (ret < 0 && ret != AVERROR(EAGAIN))
      return fail(status_for(ret) == RIAL_VIDEO_OUT_OF_MEMORY ? RIAL_VIDEO_OUT_OF_MEMORY : RIAL_VIDEO_CORRUPT, ret,
                  message, message_size, "decoding failed after %lld frames", (long long)d->frames);
  }
}

/* ---- encoder ---- */

struct rial_video_encoder {
  AVFormatContext *format;
  AVCodecContext *codec;
  AVStream *stream;
  AVFrame *frame;
  AVPacket *packet;
  int width, height;
  int64_t next_pts;
  int finished;
};

void rial_video_encoder_close(rial_video_encoder *e) {
  if (!e) return;
  av_frame_free(&e->frame);
  av_packet_free(&e->packet);
  avcodec_free_context(&e->codec);
  if (e->format) {
    if (e->format->pb && !(e->format->oformat->flags & AVFMT_NOFILE)) avio_closep(&e->format->pb);
    avformat_free_context(e->format);
  }
  av_free(e);
}

int rial_video_has_encoder(const char *name) { return name && avcodec_find_encoder_by_name(name) ? 1 : 0; }

static int supports(const AVCodec *codec, enum AVPixelFormat format) {
  if (!codec->pix_fmts) return 0;
  for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE; p++)
    if (*p == format) return 1;
  return 0;
}

int rial_video_encoder_open(const char *path, int32_t width, int32_t height, const rial_video_encoder_options *o,
                            rial_video_encoder **out, char *message, size_t message_size) {
  begin_call();
  if (!path || !o || !out) return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "null argument");
  *out = NULL;
  if (width <= 0 || height <= 0 || width % 2 || height % 2 || width > 16384 || height > 16384)
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size,
                "frame size %dx%d: width and height must be even and in 2...16384", width, height);
  if (o->fps_num <= 0 || o->fps_den <= 0)
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "frame rate %d/%d is not positive",
                o->fps_num, o->fps_den);
  if (o->rotation % 90 != 0 || o->rotation < 0 || o->rotation >= 360)
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "rotation %d is not 0, 90, 180 or 270",
                o->rotation);
  const char *name = o->encoder[0] ? o->encoder : "libx264";
  const AVCodec *codec = avcodec_find_encoder_by_name(name);
  if (!codec) return fail(RIAL_VIDEO_UNSUPPORTED, 0, message, message_size, "libavcodec has no '%s' encoder", name);
  enum AVPixelFormat pixel_format = supports(codec, AV_PIX_FMT_NV12)      ? AV_PIX_FMT_NV12
                                    : supports(codec, AV_PIX_FMT_YUV420P) ? AV_PIX_FMT_YUV420P
                                                                          : AV_PIX_FMT_NONE;
  if (pixel_format == AV_PIX_FMT_NONE)
    return fail(RIAL_VIDEO_UNSUPPORTED, 0, message, message_size, "the '%s' encoder takes neither NV12 nor yuv420p",
                name);

  rial_video_encoder *e = av_mallocz(sizeof *e);
  if (!e) return fail(RIAL_VIDEO_OUT_OF_MEMORY, 0, message, message_size, "out of memory");
  e->width = width;
  e->height = height;
  int ret = avformat_alloc_output_context2(&e->format, NULL, NULL, path);
  if (ret < 0 || !e->format) {
    rial_video_encoder_close(e);
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size,
                "no container format for this file name (use .mp4 or .mov)");
  }
  e->stream = avformat_new_stream(e->format, NULL);
  e->codec = avcodec_alloc_context3(codec);
  e->frame = av_frame_alloc();
  e->packet = av_packet_alloc();
  if (!e->stream || !e->codec || !e->frame || !e->packet) {
    rial_video_encoder_close(e);
    return fail(RIAL_VIDEO_OUT_OF_MEMORY, 0, message, message_size, "out of memory");
  }
  AVCodecContext *c = e->codec;
  c->width = width;
  c->height = height;
  c->pix_fmt = pixel_format;
  c->time_base = (AVRational){o->fps_den, o->fps_num};
  c->framerate = (AVRational){o->fps_num, o->fps_den};
  c->thread_count = o->threads;
  if (o->gop_size > 0) c->gop_size = o->gop_size;
  if (o->max_b_frames >= 0) c->max_b_frames = o->max_b_frames;
  if (e->format->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary *options = NULL;
  if (o->preset[0]) av_dict_set(&options, "preset", o->preset, 0);
  /* x265 prints to stderr itself instead of through av_log. */
  if (strcmp(name, "libx265") == 0) av_dict_set(&options, "x265-params", "log-level=none", 0);
  if (o->rate_mode == RIAL_VIDEO_RATE_CRF) {
    char crf[32];
    snprintf(crf, sizeof crf, "%.3f", o->crf);
    av_dict_set(&options, "crf", crf, 0);
  } else if (o->rate_mode == RIAL_VIDEO_RATE_QP) {
    av_dict_set_int(&options, "qp", o->qp, 0);
  } else {
    c->bit_rate = o->bit_rate;
  }
  ret = avcodec_open2(c, codec, &options);
  av_dict_free(&options);
  if (ret < 0) {
    rial_video_encoder_close(e);
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, ret, message, message_size, "cannot open the %s encoder", name);
  }
  ret = avcodec_parameters_from_context(e->stream->codecpar, c);
  if (ret < 0) {
    rial_video_encoder_close(e);
    return fail(status_for(ret), ret, message, message_size, "cannot set the stream parameters");
  }
  e->stream->time_base = c->time_base;
  e->stream->avg_frame_rate = c->framerate;
  if (o->rotation) {
    uint8_t *matrix = av_stream_new_side_data(e->stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
    if (!matrix) {
      rial_video_encoder_close(e);
      return fail(RIAL_VIDEO_OUT_OF_MEMORY, 0, message, message_size, "out of memory");
    }
    /* FFmpeg's setter takes the clockwise angle; its getter returns the counterclockwise one. */
    av_display_rotation_set((int32_t *)matrix, (double)o->rotation);
  }
  if (!(e->format->oformat->flags & AVFMT_NOFILE)) {
    ret = avio_open(&e->format->pb, path, AVIO_FLAG_WRITE);
    if (ret < 0) {
      rial_video_encoder_close(e);
      return fail(RIAL_VIDEO_WRITE_FAILED, ret, message, message_size, "cannot create the file");
    }
  }
  ret = avformat_write_header(e->format, NULL);
  if (ret < 0) {
    rial_video_encoder_close(e);
    return fail(RIAL_VIDEO_WRITE_FAILED, ret, message, message_size, "cannot write the container header");
  }
  e->frame->format = pixel_format;
  e->frame->width = width;
  e->frame->height = height;
  ret = av_frame_get_buffer(e->frame, 0);
  if (ret < 0) {
    rial_video_encoder_close(e);
    return fail(RIAL_VIDEO_OUT_OF_MEMORY, ret, message, message_size, "cannot allocate a frame");
  }
  *out = e;
  return RIAL_VIDEO_OK;
}

/* Sends `frame` (NULL flushes) and writes every packet the encoder returns. */
static int encode(rial_video_encoder *e, const AVFrame *frame, char *message, size_t message_size) {
  int ret = avcodec_send_frame(e->codec, frame);
  if (ret < 0)
    return fail(RIAL_VIDEO_WRITE_FAILED, ret, message, message_size, "encoding frame %lld failed",
                (long long)e->next_pts);
  for (;;) {
    ret = avcodec_receive_packet(e->codec, e->packet);
    if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return RIAL_VIDEO_OK;
    if (ret < 0)
      return fail(RIAL_VIDEO_WRITE_FAILED, ret, message, message_size, "encoding frame %lld failed",
                  (long long)e->next_pts);
    av_packet_rescale_ts(e->packet, e->codec->time_base, e->stream->time_base);
    e->packet->stream_index = e->stream->index;
    ret = av_interleaved_write_frame(e->format, e->packet); /* unreferences the packet */
    if (ret < 0) return fail(RIAL_VIDEO_WRITE_FAILED, ret, message, message_size, "writing a packet failed");
  }
}

int rial_video_encoder_write_nv12(rial_video_encoder *e, const uint8_t *nv12, size_t size, char *message,
                                  size_t message_size) {
  begin_call();
  if (!e || !nv12) return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "null argument");
  if (e->finished) return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "the encoder is finished");
  const int w = e->width, h = e->height;
  const size_t need = (size_t)w * h * 3 / 2;
  if (size != need)
    return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "NV12 frame is %zu bytes, need %zu for %dx%d",
                size, need, w, h);
  int ret = av_frame_make_writable(e->frame);
  if (ret < 0) return fail(RIAL_VIDEO_OUT_OF_MEMORY, ret, message, message_size, "cannot allocate a frame");
  AVFrame *f = e->frame;
  for (int y = 0; y < h; y++) memcpy(f->data[0] + (ptrdiff_t)y * f->linesize[0], nv12 + (size_t)y * w, w);
  const uint8_t *uv = nv12 + (size_t)w * h;
  if (f->format == AV_PIX_FMT_NV12) {
    for (int y = 0; y < h / 2; y++) memcpy(f->data[1] + (ptrdiff_t)y * f->linesize[1], uv + (size_t)y * w, w);
  } else {
    for (int y = 0; y < h / 2; y++) {
      uint8_t *u = f->data[1] + (ptrdiff_t)y * f->linesize[1];
      uint8_t *v = f->data[2] + (ptrdiff_t)y * f->linesize[2];
      const uint8_t *row = uv + (size_t)y * w;
      for (int x = 0; x < w / 2; x++) {
        u[x] = row[2 * x];
        v[x] = row[2 * x + 1];
      }
    }
  }
  f->pts = e->next_pts;
  int status = encode(e, f, message, message_size);
  if (status == RIAL_VIDEO_OK) e->next_pts++;
  return status;
}

int rial_video_encoder_finish(rial_video_encoder *e, char *message, size_t message_size) {
  begin_call();
  if (!e) return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "null argument");
  if (e->finished) return fail(RIAL_VIDEO_INVALID_ARGUMENT, 0, message, message_size, "the encoder is finished");
  e->finished = 1;
  int status = encode(e, NULL, message, message_size);
  if (status != RIAL_VIDEO_OK) return status;
  int ret = av_write_trailer(e->format);
  if (ret < 0) return fail(RIAL_VIDEO_WRITE_FAILED, ret, message, message_size, "cannot write the container trailer");
  if (e->format->pb) {
    avio_flush(e->format->pb);
    if (e->format->pb->error < 0)
      return fail(RIAL_VIDEO_WRITE_FAILED, e->format->pb->error, message, message_size, "writing the file failed");
  }
  return RIAL_VIDEO_OK;
}

void rial_video_library_versions(char *buffer, size_t size) {
  unsigned f = avformat_version(), c = avcodec_version(), u = avutil_version(), s = swscale_version();
  snprintf(buffer, size, "libavformat %u.%u.%u, libavcodec %u.%u.%u, libavutil %u.%u.%u, libswscale %u.%u.%u",
           f >> 16, (f >> 8) & 0xff, f & 0xff, c >> 16, (c >> 8) & 0xff, c & 0xff, u >> 16, (u >> 8) & 0xff,
           u & 0xff, s >> 16, (s >> 8) & 0xff, s & 0xff);
}
