#ifndef RIAL_PNG_H
#define RIAL_PNG_H

/*
 * PNG decoding and encoding through libpng, with every libpng error caught by a
 * setjmp/longjmp pair that stays inside rial_png.c: a corrupt file becomes a status
 * code and a message, never an abort and never a longjmp across Swift frames.
 *
 * Decoded layout: interleaved samples, rows top to bottom, no row padding.
 *   - palette images are expanded to RGB, or RGBA when a tRNS chunk is present;
 *   - gray images of bit depth 1, 2 or 4 are expanded to 8 bits (scaled to 0...255);
 *   - a tRNS chunk on gray or RGB images becomes an alpha channel;
 *   - 16-bit samples are returned as uint16_t in host byte order;
 *   - interlaced (Adam7) images are de-interlaced.
 * This header does not include png.h, so libpng stays out of the Swift module.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Room for a libpng message plus our own prefix; messages are truncated to fit. */
#define RIAL_PNG_MESSAGE_CAPACITY 256

/** Result of every call. */
enum {
    RIAL_PNG_OK = 0,
    /** libpng rejected the bytes (not a PNG, truncated, CRC error, bad zlib data ...). */
    RIAL_PNG_ERR_CORRUPT = 1,
    /** The image has more pixels than the caller's limit; nothing was allocated. */
    RIAL_PNG_ERR_TOO_LARGE = 2,
    /** The caller's arguments are inconsistent (buffer size, channels, bit depth, level). */
    RIAL_PNG_ERR_ARGUMENT = 3,
    /** malloc failed. */
    RIAL_PNG_ERR_NO_MEMORY = 4
};

/** Colour types as stored in the IHDR chunk (same numbers as libpng's PNG_COLOR_TYPE_*). */
enum {
    RIAL_PNG_COLOR_GRAY = 0,
    RIAL_PNG_COLOR_RGB = 2,
    RIAL_PNG_COLOR_PALETTE = 3,
    RIAL_PNG_COLOR_GRAY_ALPHA = 4,
    RIAL_PNG_COLOR_RGBA = 6
};

typedef struct rial_png_info {
    uint32_t width;
    uint32_t height;
    /** Bit depth as stored: 1, 2, 4, 8 or 16. */
    int32_t bit_depth;
    /** One of RIAL_PNG_COLOR_*. */
    int32_t color_type;
    /** 1 when the file is Adam7-interlaced. */
    int32_t interlaced;
    /** 1 when a valid tRNS chunk is present. */
    int32_t has_transparency;
    /** Channels after expansion: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA. */
    int32_t decoded_channels;
    /** Bits per decoded sample: 8 or 16. */
    int32_t decoded_bit_depth;
} rial_png_info;

/**
 * Reads the signature and every chunk up to the first IDAT, fills *info.
 * Does not apply any pixel limit. Returns RIAL_PNG_OK or an error with a message.
 */
int rial_png_read_info(const uint8_t *data, size_t size, rial_png_info *info,
                       char *message, size_t message_capacity);

/**
 * Decodes a whole PNG into `pixels`, which must hold exactly
 * width * height * decoded_channels * (decoded_bit_depth / 8) bytes (as reported by
 * rial_png_read_info). Images with more than `max_pixels` pixels are refused with
 * RIAL_PNG_ERR_TOO_LARGE before anything is allocated. Fills *info as well.
 */
int rial_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                    void *pixels, size_t pixels_size, rial_png_info *info,
                    char *message, size_t message_capacity);

/**
 * Encodes interleaved samples (channels 1...4, bit_depth 8 or 16 with 16-bit samples
 * in host byte order, rows without padding) as a non-interlaced PNG. compression_level
 * is zlib's 0 (none) ... 9 (smallest). On success *out points to malloc'd bytes the
 * caller releases with rial_png_free and *out_size is their count.
 */
int rial_png_encode(const void *pixels, size_t pixels_size, uint32_t width, uint32_t height,
                    int channels, int bit_depth, int compression_level,
                    uint8_t **out, size_t *out_size, char *message, size_t message_capacity);

/** Releases a buffer returned by rial_png_encode. */
void rial_png_free(void *buffer);

/** The libpng version this was linked against, e.g. "1.6.39". */
const char *rial_png_libpng_version(void);

#ifdef __cplusplus
}
#endif

#endif /* RIAL_PNG_H */
