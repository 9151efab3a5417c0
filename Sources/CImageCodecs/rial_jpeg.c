/*
 * rial_jpeg.c: libjpeg-turbo decode/encode behind a setjmp error manager.
 *
 * Error handling. libjpeg reports fatal errors through err->error_exit, whose default
 * prints and calls exit(). We replace it with a handler that formats the message
 * (format_message, the library's own text), records a status and longjmps back to the
 * setjmp armed at the top of the public function that is running. Every public
 * function that calls into libjpeg arms its own setjmp first, so the jump target is
 * always a live C frame and never crosses Swift code.
 *
 * Warnings. libjpeg calls emit_message(-1) for recoverable corrupt-data conditions
 * ("Premature end of JPEG file", "Corrupt JPEG data: N extraneous bytes before marker",
 * "bad Huffman code", ...). With jpeg_mem_src, data that ends early does not fail:
 * the source inserts a fake EOI marker and the rest of the image decodes as flat
 * gray. We count warnings, keep the first one's text, and by policy turn them into
 * errors: RIAL_JPEG_WARN_REJECT_TRUNCATED (default) fails on "Premature end of JPEG
 * file" only, REJECT_ALL on any warning, ACCEPT_ALL never (what djpeg does).
 *
 * Settings are libjpeg's (and djpeg's) defaults: JDCT_ISLOW IDCT, fancy upsampling,
 * block smoothing for progressive files.
 */
#include "rial_jpeg.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Rows handed to one jpeg_read_scanlines / jpeg_write_scanlines call. libjpeg returns
 * at most its internal row-group height (1-2 rows for 8x8 DCT, up to 16 for scaled
 * output) per call, so this is an upper bound, not a copy size. */
#define RIAL_ROWS_PER_CALL 16

/* ------------------------------------------------------------------------------ */
/* Error manager */

typedef struct {
  struct jpeg_error_mgr pub; /* must be first: libjpeg sees only this part */
  jmp_buf jump;
  int32_t policy;            /* RIAL_JPEG_WARN_* */
  int32_t status;            /* status to return after the longjmp */
  int32_t warning_count;
  int32_t truncated;
  char message[JMSG_LENGTH_MAX + 64];
  char first_warning[JMSG_LENGTH_MAX];
} rial_error_mgr;

/* Maps a libjpeg error code to our status: features we cannot decode are
 * "unsupported", exhausted memory is its own status, everything else is bad data. */
static int32_t classify_error(int code) {
  switch (code) {
  case JERR_SOF_UNSUPPORTED:     /* lossless / hierarchical processes */
  case JERR_BAD_PRECISION:       /* 12- or 16-bit samples */
  case JERR_CONVERSION_NOTIMPL:  /* no conversion from the coded colour space */
  case JERR_NOTIMPL:
  case JERR_NOT_COMPILED:
  case JERR_ARITH_NOTIMPL:
  case JERR_CCIR601_NOTIMPL:
  case JERR_FRACT_SAMPLE_NOTIMPL:
    return RIAL_JPEG_UNSUPPORTED;
  case JERR_OUT_OF_MEMORY:
    return RIAL_JPEG_OUT_OF_MEMORY;
  default:
    return RIAL_JPEG_CORRUPT;
  }
}

static void rial_error_exit(j_common_ptr cinfo) {
  rial_error_mgr *err = (rial_error_mgr *)cinfo->err;
  (*cinfo->err->format_message)(cinfo, err->message);
  err->status = classify_error(cinfo->err->msg_code);
  longjmp(err->jump, 1);
}

static void rial_emit_message(j_common_ptr cinfo, int msg_level) {
  rial_error_mgr *err = (rial_error_mgr *)cinfo->err;
  if (msg_level >= 0) return; /* trace messages: ignored */
  err->pub.num_warnings++;
  err->warning_count++;
  int code = err->pub.msg_code;
  if (code == JWRN_JPEG_EOF) err->truncated = 1;
  if (err->warning_count == 1) (*cinfo->err->format_message)(cinfo, err->first_warning);
  int fatal = err->policy == RIAL_JPEG_WARN_REJECT_ALL ||
              (err->policy == RIAL_JPEG_WARN_REJECT_TRUNCATED && code == JWRN_JPEG_EOF);
  if (fatal) {
    /* Treating a warning as fatal is sanctioned by libjpeg.txt ("Error handling"). */
    (*cinfo->err->format_message)(cinfo, err->message);
    err->status = RIAL_JPEG_CORRUPT;
    longjmp(err->jump, 1);
  }
}

static void rial_output_message(j_common_ptr cinfo) { (void)cinfo; /* never print */ }

static void rial_error_init(rial_error_mgr *err, int32_t policy) {
  jpeg_std_error(&err->pub);
  err->pub.error_exit = rial_error_exit;
  err->pub.emit_message = rial_emit_message;
  err->pub.output_message = rial_output_message;
  err->policy = policy;
  err->status = RIAL_JPEG_OK;
  err->warning_count = 0;
  err->truncated = 0;
  err->message[0] = '\0';
  err->first_warning[0] = '\0';
}

/* Records a status and message that did not come from libjpeg. */
static int32_t fail(rial_error_mgr *err, int32_t status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int32_t fail(rial_error_mgr *err, int32_t status, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, args);
  va_end(args);
  err->status = status;
  return status;
}

/* ------------------------------------------------------------------------------ */
/* Decoder */

struct rial_jpeg_decoder {
  struct jpeg_decompress_struct cinfo; /* first, so a j_common_ptr casts back */
  rial_error_mgr err;
  struct jpeg_progress_mgr progress;
  rial_jpeg_decode_params params;
  int created;     /* jpeg_create_decompress succeeded */
  int header_read; /* jpeg_read_header succeeded */
  int prepared;    /* rial_jpeg_decoder_prepare succeeded */
  int finished;    /* pixels were read (the session is single-use) */
  int cmyk;        /* output via CMYK strip + conversion */
  int cmyk_inverted;
  rial_jpeg_output_size out;
};

/* Progress monitor: refuses progressive files with more scans than max_scans, the
 * "scan bomb" where each of thousands of tiny scans re-walks the whole coefficient
 * buffer (same check as djpeg -maxscan and TurboJPEG's scan limit). */
static void rial_progress(j_common_ptr cinfo) {
  rial_jpeg_decoder *decoder = (rial_jpeg_decoder *)cinfo;
  int scans = decoder->cinfo.input_scan_number;
  if (decoder->params.max_scans > 0 && scans > decoder->params.max_scans) {
    fail(&decoder->err, RIAL_JPEG_TOO_LARGE,
         "progressive JPEG has more than %d scans (scan limit)",
         (int)decoder->params.max_scans);
    longjmp(decoder->err.jump, 1);
  }
}

rial_jpeg_decoder *rial_jpeg_decoder_create(void) {
  rial_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
  if (decoder == NULL) return NULL;
  rial_error_init(&decoder->err, RIAL_JPEG_WARN_REJECT_TRUNCATED);
  decoder->cinfo.err = &decoder->err.pub;
  if (setjmp(decoder->err.jump) != 0) {
    free(decoder);
    return NULL; /* jpeg_create_decompress only fails when out of memory */
  }
  jpeg_create_decompress(&decoder->cinfo);
  decoder->created = 1;
  decoder->progress.progress_monitor = rial_progress;
  return decoder;
}

void rial_jpeg_decoder_destroy(rial_jpeg_decoder *decoder) {
  if (decoder == NULL) return;
  if (decoder->created) {
    /* Safe after a longjmp: frees every pool whatever state the object is in. */
    if (setjmp(decoder->err.jump) == 0) jpeg_destroy_decompress(&decoder->cinfo);
  }
  free(decoder);
}

static int32_t map_color_space(J_COLOR_SPACE space) {
  switch (space) {
  case JCS_GRAYSCALE: return RIAL_JPEG_CS_GRAY;
  case JCS_YCbCr: return RIAL_JPEG_CS_YCBCR;
  case JCS_RGB: return RIAL_JPEG_CS_RGB;
  case JCS_CMYK: return RIAL_JPEG_CS_CMYK;
  case JCS_YCCK: return RIAL_JPEG_CS_YCCK;
  default: return RIAL_JPEG_CS_UNKNOWN;
  }
}

int rial_jpeg_decoder_read_header(rial_jpeg_decoder *decoder, const uint8_t *data,
                                  size_t size, const rial_jpeg_decode_params *params,
                                  rial_jpeg_info *info) {
  if (decoder == NULL || params == NULL || info == NULL) return RIAL_JPEG_INVALID_ARGUMENT;
  rial_error_mgr *err = &decoder->err;
  if (decoder->header_read || decoder->finished)
    return fail(err, RIAL_JPEG_INVALID_ARGUMENT, "decoder session already used");
  decoder->params = *params;
  err->policy = params->warning_policy;
  if (data == NULL || size == 0)
    return fail(err, RIAL_JPEG_CORRUPT, "empty input (0 bytes)");
  if (size > ULONG_MAX)
    return fail(err, RIAL_JPEG_INVALID_ARGUMENT, "input larger than libjpeg can address");

  if (setjmp(err->jump) != 0) return err->status;
  jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
  jpeg_read_header(&decoder->cinfo, TRUE);
  decoder->header_read = 1;

  const struct jpeg_decompress_struct *c = &decoder->cinfo;
  memset(info, 0, sizeof *info);
  info->width = c->image_width;
  info->height = c->image_height;
  info->components = c->num_components;
  info->color_space = map_color_space(c->jpeg_color_space);
  info->progressive = c->progressive_mode ? 1 : 0;
  info->arithmetic = c->arith_code ? 1 : 0;
  info->has_jfif_marker = c->saw_JFIF_marker ? 1 : 0;
  info->has_adobe_marker = c->saw_Adobe_marker ? 1 : 0;
  info->adobe_transform = c->saw_Adobe_marker ? c->Adobe_transform : 0;
  return RIAL_JPEG_OK;
}

int rial_jpeg_decoder_prepare(rial_jpeg_decoder *decoder, rial_jpeg_output_size *size) {
  if (decoder == NULL || size == NULL) return RIAL_JPEG_INVALID_ARGUMENT;
  rial_error_mgr *err = &decoder->err;
  struct jpeg_decompress_struct *c = &decoder->cinfo;
  if (!decoder->header_read || decoder->prepared || decoder->finished)
    return fail(err, RIAL_JPEG_INVALID_ARGUMENT, "prepare called out of order");

  const rial_jpeg_decode_params *p = &decoder->params;
  uint64_t pixels = (uint64_t)c->image_width * (uint64_t)c->image_height;
  if (p->max_pixels > 0 && pixels > p->max_pixels)
    return fail(err, RIAL_JPEG_TOO_LARGE,
                "image is %ux%u (%.1f megapixels), above the decode limit of %.1f "
                "megapixels",
                (unsigned)c->image_width, (unsigned)c->image_height, (double)pixels / 1e6,
                (double)p->max_pixels / 1e6);
  if (p->scale_denom != 1 && p->scale_denom != 2 && p->scale_denom != 4 &&
      p->scale_denom != 8)
    return fail(err, RIAL_JPEG_INVALID_ARGUMENT, "scale denominator %d is not 1, 2, 4 or 8",
                (int)p->scale_denom);
  if (p->output != RIAL_JPEG_OUTPUT_RGB && p->output != RIAL_JPEG_OUTPUT_GRAY)
    return fail(err, RIAL_JPEG_INVALID_ARGUMENT, "unknown output format %d", (int)p->output);

  switch (c->jpeg_color_space) {
  case JCS_GRAYSCALE:
  case JCS_YCbCr:
  case JCS_RGB:
    /* libjpeg-turbo converts each of these to RGB or to gray (YCbCr -> gray keeps the
     * Y plane without decoding chroma; RGB -> gray uses the same 0.299/0.587/0.114
     * weights as below). JCS_EXT_RGB is exactly 3 bytes R, G, B. */
    c->out_color_space = p->output == RIAL_JPEG_OUTPUT_GRAY ? JCS_GRAYSCALE : JCS_EXT_RGB;
    decoder->cmyk = 0;
    break;
  case JCS_CMYK:
  case JCS_YCCK:
    /* libjpeg converts YCCK -> CMYK itself; CMYK -> RGB is ours (see convert_cmyk_row). */
    c->out_color_space = JCS_CMYK;
    decoder->cmyk = 1;
    decoder->cmyk_inverted = c->saw_Adobe_marker ? 1 : 0;
    break;
  default:
    return fail(err, RIAL_JPEG_UNSUPPORTED,
                "%d-component JPEG with no known colour space; cannot convert to %s",
                c->num_components, p->output == RIAL_JPEG_OUTPUT_GRAY ? "gray" : "RGB");
  }
  c->scale_num = 1;
  c->scale_denom = (unsigned int)p->scale_denom;

  if (setjmp(err->jump) != 0) return err->status;
  jpeg_calc_output_dimensions(c);

  decoder->out.width = c->output_width;
  decoder->out.height = c->output_height;
  decoder->out.channels = p->output == RIAL_JPEG_OUTPUT_GRAY ? 1 : 3;
  decoder->out.byte_count =
      (uint64_t)c->output_width * (uint64_t)c->output_height * (uint64_t)decoder->out.channels;
  if (decoder->out.width == 0 || decoder->out.height == 0)
    return fail(err, RIAL_JPEG_CORRUPT, "image has zero width or height");
  if (decoder->out.byte_count > (uint64_t)SIZE_MAX / 2)
    return fail(err, RIAL_JPEG_TOO_LARGE, "output does not fit in memory");
  decoder->prepared = 1;
  *size = decoder->out;
  return RIAL_JPEG_OK;
}

/* x * y / 255 rounded to nearest for x, y in 0...255 (exact; the same integer formula
 * as Pillow's MULDIV255, so results match Pillow's CMYK -> RGB bit for bit). */
static inline uint8_t mul255(unsigned x, unsigned y) {
  unsigned t = x * y + 128;
  return (uint8_t)((t + (t >> 8)) >> 8);
}

/*
 * CMYK -> RGB for one row.
 *
 * Plain CMYK stores ink amounts (0 = no ink): R = (255 - C) * (255 - K) / 255, and
 * likewise G from M and B from Y. Adobe applications (Photoshop) store CMYK/YCCK
 * *inverted* (s = 255 - ink) and always write an APP14 "Adobe" marker with such files,
 * so when that marker is present the formula becomes R = sC * sK / 255. This is the
 * convention Pillow, libjpeg-turbo's own djpeg PPM writer and browsers follow for
 * Adobe files. (A CMYK file without the marker is read as plain ink values.)
 * Gray output then uses libjpeg's RGB -> gray weights:
 * Y = (19595 R + 38470 G + 7471 B + 32768) >> 16, i.e. 0.299 R + 0.587 G + 0.114 B.
 */
static void convert_cmyk_row(const uint8_t *src, uint8_t *dst, uint32_t width, int inverted,
                             int gray) {
  unsigned flip = inverted ? 0u : 255u;
  for (uint32_t x = 0; x < width; x++, src += 4) {
    unsigned kk = src[3] ^ flip;
    uint8_t r = mul255(src[0] ^ flip, kk);
    uint8_t g = mul255(src[1] ^ flip, kk);
    uint8_t b = mul255(src[2] ^ flip, kk);
    if (gray) {
      *dst++ = (uint8_t)((19595u * r + 38470u * g + 7471u * b + 32768u) >> 16);
    } else {
      dst[0] = r;
      dst[1] = g;
      dst[2] = b;
      dst += 3;
    }
  }
}

/*
 * Asks Linux for transparent huge pages on the 2 MB-aligned interior of a large,
 * not yet touched output buffer. A fresh 12 MP RGB image is 36 MB: with 4 KB pages
 * the first write to it costs ~9,000 page faults, about a third of the decode time in
 * a VM; with 2 MB pages, ~18. Only advice: without THP support (or with THP "never")
 * nothing changes, and the buffer stays owned by whoever allocated it.
 */
static void advise_huge_pages(uint8_t *buffer, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = (uintptr_t)2 << 20;
  if (size < 4 * huge) return;
  uintptr_t start = ((uintptr_t)buffer + huge - 1) & ~(huge - 1);
  uintptr_t end = ((uintptr_t)buffer + size) & ~(huge - 1);
  if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
  (void)buffer;
  (void)size;
#endif
}

int rial_jpeg_decoder_read_pixels(rial_jpeg_decoder *decoder, uint8_t *destination,
                                  size_t byte_count) {
  return rial_jpeg_decoder_read_pixels_reporting(decoder, destination, byte_count, NULL, NULL);
}

int rial_jpeg_decoder_read_pixels_reporting(rial_jpeg_decoder *decoder, uint8_t *destination,
                                            size_t byte_count, rial_jpeg_rows_callback rows_done,
                                            void *context) {
  if (decoder == NULL) return RIAL_JPEG_INVALID_ARGUMENT;
  rial_error_mgr *err = &decoder->err;
  struct jpeg_decompress_struct *c = &decoder->cinfo;
  if (!decoder->prepared || decoder->finished)
    return fail(err, RIAL_JPEG_INVALID_ARGUMENT, "read_pixels called out of order");
  if (destination == NULL || (uint64_t)byte_count != decoder->out.byte_count)
    return fail(err, RIAL_JPEG_INVALID_ARGUMENT,
                "destination holds %zu bytes, the image needs %llu", byte_count,
                (unsigned long long)decoder->out.byte_count);
  decoder->finished = 1;
  advise_huge_pages(destination, byte_count);

  if (setjmp(err->jump) != 0) return err->status;
  c->progress = decoder->params.max_scans > 0 ? &decoder->progress : NULL;
  jpeg_start_decompress(c);
  if (c->output_width != decoder->out.width || c->output_height != decoder->out.height)
    return fail(err, RIAL_JPEG_CORRUPT, "output size changed while decoding");

  const size_t stride = (size_t)decoder->out.width * (size_t)decoder->out.channels;
  JSAMPROW rows[RIAL_ROWS_PER_CALL];

  if (!decoder->cmyk) {
    /* Straight into the destination: libjpeg's colour converter writes each output
     * row to the pointer we give it. */
    while (c->output_scanline < c->output_height) {
      JDIMENSION first = c->output_scanline;
      JDIMENSION want = c->output_height - first;
      if (want > RIAL_ROWS_PER_CALL) want = RIAL_ROWS_PER_CALL;
      for (JDIMENSION i = 0; i < want; i++) rows[i] = destination + (size_t)(first + i) * stride;
      if (jpeg_read_scanlines(c, rows, want) == 0)
        return fail(err, RIAL_JPEG_CORRUPT, "decoder made no progress");
      if (rows_done != NULL) rows_done(context, c->output_scanline);
    }
  } else {
    if (c->out_color_components != 4)
      return fail(err, RIAL_JPEG_UNSUPPORTED, "CMYK output with %d components",
                  c->out_color_components);
    /* Strip from libjpeg's image pool: freed by jpeg_destroy_decompress, even on error. */
    JSAMPARRAY strip = (*c->mem->alloc_sarray)((j_common_ptr)c, JPOOL_IMAGE,
                                               c->output_width * 4, RIAL_ROWS_PER_CALL);
    int gray = decoder->out.channels == 1;
    while (c->output_scanline < c->output_height) {
      JDIMENSION first = c->output_scanline;
      JDIMENSION want = c->output_height - first;
      if (want > RIAL_ROWS_PER_CALL) want = RIAL_ROWS_PER_CALL;
      JDIMENSION got = jpeg_read_scanlines(c, strip, want);
      if (got == 0) return fail(err, RIAL_JPEG_CORRUPT, "decoder made no progress");
      for (JDIMENSION i = 0; i < got; i++)
        convert_cmyk_row(strip[i], destination + (size_t)(first + i) * stride,
                         c->output_width, decoder->cmyk_inverted, gray);
      if (rows_done != NULL) rows_done(context, c->output_scanline);
    }
  }
  jpeg_finish_decompress(c);
  return RIAL_JPEG_OK;
}

const char *rial_jpeg_decoder_message(const rial_jpeg_decoder *decoder) {
  return decoder == NULL ? "" : decoder->err.message;
}

int32_t rial_jpeg_decoder_warning_count(const rial_jpeg_decoder *decoder) {
  return decoder == NULL ? 0 : decoder->err.warning_count;
}

const char *rial_jpeg_decoder_first_warning(const rial_jpeg_decoder *decoder) {
  return decoder == NULL ? "" : decoder->err.first_warning;
}

int32_t rial_jpeg_decoder_truncated(const rial_jpeg_decoder *decoder) {
  return decoder == NULL ? 0 : decoder->err.truncated;
}

/* ------------------------------------------------------------------------------ */
/* Encoder */

/* A growable malloc'd destination. jpeg_mem_dest is not used because the buffer it
 * grows internally is only published in term_destination: an error mid-stream would
 * leak it. Here the buffer is ours to free on every path. */
typedef struct {
  struct jpeg_destination_mgr pub; /* must be first */
  uint8_t *buffer;
  size_t capacity;
  size_t size;
} rial_mem_destination;

static void dest_init(j_compress_ptr cinfo) {
  rial_mem_destination *d = (rial_mem_destination *)cinfo->dest;
  d->pub.next_output_byte = d->buffer;
  d->pub.free_in_buffer = d->capacity;
}

/* Called when the buffer is full: double it (non-suspending, so the whole buffer holds
 * data by contract). */
static boolean dest_empty(j_compress_ptr cinfo) {
  rial_mem_destination *d = (rial_mem_destination *)cinfo->dest;
  size_t grown = d->capacity * 2;
  uint8_t *p = grown > d->capacity ? realloc(d->buffer, grown) : NULL;
  if (p == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 99);
  d->buffer = p;
  d->pub.next_output_byte = p + d->capacity;
  d->pub.free_in_buffer = grown - d->capacity;
  d->capacity = grown;
  return TRUE;
}

static void dest_term(j_compress_ptr cinfo) {
  rial_mem_destination *d = (rial_mem_destination *)cinfo->dest;
  d->size = d->capacity - d->pub.free_in_buffer;
}

typedef struct {
  struct jpeg_compress_struct cinfo;
  rial_error_mgr err;
  rial_mem_destination dest;
} rial_encoder;

static void copy_message(char *message, size_t capacity, const char *text) {
  if (message == NULL || capacity == 0) return;
  snprintf(message, capacity, "%s", text);
}

/*
 * Shared encoder. in_space/components describe `pixels`; jpeg_space is the coded colour
 * space (JCS_UNKNOWN: libjpeg's default for in_space); adobe_marker < 0 keeps libjpeg's
 * default.
 */
static int encode_image(const uint8_t *pixels, uint32_t width, uint32_t height,
                        int components, J_COLOR_SPACE in_space, J_COLOR_SPACE jpeg_space,
                        int32_t quality, int32_t progressive, int32_t subsampling,
                        int32_t adobe_marker, uint8_t **out_data, size_t *out_size,
                        char *message, size_t message_capacity) {
  if (out_data == NULL || out_size == NULL || pixels == NULL) {
    copy_message(message, message_capacity, "null argument");
    return RIAL_JPEG_INVALID_ARGUMENT;
  }
  *out_data = NULL;
  *out_size = 0;
  if (width == 0 || height == 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
    char text[128];
    snprintf(text, sizeof text, "image is %ux%u; JPEG needs 1...%u pixels per side",
             (unsigned)width, (unsigned)height, (unsigned)JPEG_MAX_DIMENSION);
    copy_message(message, message_capacity, text);
    return RIAL_JPEG_INVALID_ARGUMENT;
  }
  if (quality < 1 || quality > 100) {
    char text[64];
    snprintf(text, sizeof text, "quality %d is outside 1...100", (int)quality);
    copy_message(message, message_capacity, text);
    return RIAL_JPEG_INVALID_ARGUMENT;
  }
  if (subsampling != RIAL_JPEG_SUBSAMPLING_420 && subsampling != RIAL_JPEG_SUBSAMPLING_444) {
    copy_message(message, message_capacity, "unknown chroma subsampling");
    return RIAL_JPEG_INVALID_ARGUMENT;
  }

  rial_encoder *enc = calloc(1, sizeof *enc);
  if (enc == NULL) {
    copy_message(message, message_capacity, "out of memory");
    return RIAL_JPEG_OUT_OF_MEMORY;
  }
  /* Initial guess: a quarter of the raw size (quality 90 4:2:0 photos need ~1/10). */
  size_t raw = (size_t)width * height * (size_t)components;
  enc->dest.capacity = raw / 4 + 4096;
  enc->dest.buffer = malloc(enc->dest.capacity);
  if (enc->dest.buffer == NULL) {
    free(enc);
    copy_message(message, message_capacity, "out of memory");
    return RIAL_JPEG_OUT_OF_MEMORY;
  }
  enc->dest.pub.init_destination = dest_init;
  enc->dest.pub.empty_output_buffer = dest_empty;
  enc->dest.pub.term_destination = dest_term;
  rial_error_init(&enc->err, RIAL_JPEG_WARN_ACCEPT_ALL);
  enc->cinfo.err = &enc->err.pub;

  if (setjmp(enc->err.jump) != 0) {
    int32_t status = enc->err.status;
    /* Encoder errors come from parameters (sizes, tables), not data; memory is OOM. */
    if (status == RIAL_JPEG_CORRUPT) status = RIAL_JPEG_INVALID_ARGUMENT;
    copy_message(message, message_capacity, enc->err.message);
    if (setjmp(enc->err.jump) == 0) jpeg_destroy_compress(&enc->cinfo);
    free(enc->dest.buffer);
    free(enc);
    return status;
  }
  jpeg_create_compress(&enc->cinfo);
  struct jpeg_compress_struct *c = &enc->cinfo;
  c->dest = &enc->dest.pub;
  c->image_width = width;
  c->image_height = height;
  c->input_components = components;
  c->in_color_space = in_space;
  jpeg_set_defaults(c); /* JFIF, YCbCr (for RGB), 2x2 luma = 4:2:0, ISLOW DCT */
  if (jpeg_space != JCS_UNKNOWN) jpeg_set_colorspace(c, jpeg_space);
  jpeg_set_quality(c, quality, TRUE);
  if (components == 3 && subsampling == RIAL_JPEG_SUBSAMPLING_444) {
    c->comp_info[0].h_samp_factor = 1;
    c->comp_info[0].v_samp_factor = 1;
  }
  if (adobe_marker >= 0) c->write_Adobe_marker = adobe_marker ? TRUE : FALSE;
  if (progressive) jpeg_simple_progression(c);
  jpeg_start_compress(c, TRUE);

  const size_t stride = (size_t)width * (size_t)components;
  JSAMPROW rows[RIAL_ROWS_PER_CALL];
  while (c->next_scanline < c->image_height) {
    JDIMENSION first = c->next_scanline;
    JDIMENSION want = c->image_height - first;
    if (want > RIAL_ROWS_PER_CALL) want = RIAL_ROWS_PER_CALL;
    /* libjpeg's prototype is not const-correct; it only reads the rows. */
    for (JDIMENSION i = 0; i < want; i++)
      rows[i] = (JSAMPROW)(uintptr_t)(pixels + (size_t)(first + i) * stride);
    jpeg_write_scanlines(c, rows, want);
  }
  jpeg_finish_compress(c);
  jpeg_destroy_compress(c);

  *out_data = enc->dest.buffer;
  *out_size = enc->dest.size;
  free(enc);
  return RIAL_JPEG_OK;
}

int rial_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height,
                     int32_t channels, int32_t quality, int32_t progressive,
                     int32_t subsampling, uint8_t **out_data, size_t *out_size,
                     char *message, size_t message_capacity) {
  J_COLOR_SPACE space;
  switch (channels) {
  case 1: space = JCS_GRAYSCALE; break;
  case 3: space = JCS_EXT_RGB; break;
  default:
    copy_message(message, message_capacity,
                 "JPEG stores 1 (gray) or 3 (RGB) channels; drop the alpha channel first");
    return RIAL_JPEG_INVALID_ARGUMENT;
  }
  return encode_image(pixels, width, height, channels, space, JCS_UNKNOWN, quality,
                      progressive, subsampling, -1, out_data, out_size, message,
                      message_capacity);
}

int rial_jpeg_encode_cmyk(const uint8_t *pixels, uint32_t width, uint32_t height,
                          int32_t quality, int32_t as_ycck, int32_t write_adobe_marker,
                          uint8_t **out_data, size_t *out_size,
                          char *message, size_t message_capacity) {
  if (as_ycck && !write_adobe_marker) {
    copy_message(message, message_capacity, "YCCK needs the Adobe marker");
    return RIAL_JPEG_INVALID_ARGUMENT;
  }
  return encode_image(pixels, width, height, 4, JCS_CMYK, as_ycck ? JCS_YCCK : JCS_CMYK,
                      quality, 0, RIAL_JPEG_SUBSAMPLING_444, write_adobe_marker ? 1 : 0,
                      out_data, out_size, message, message_capacity);
}

void rial_jpeg_free(void *buffer) { free(buffer); }

int32_t rial_jpeg_library_version(void) {
#ifdef LIBJPEG_TURBO_VERSION_NUMBER
  return LIBJPEG_TURBO_VERSION_NUMBER;
#else
  return JPEG_LIB_VERSION;
#endif
}
