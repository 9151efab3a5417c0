/*
 * PNG through libpng with setjmp-based error handling.
 *
 * libpng reports errors by calling an error function that must not return. Ours
 * copies the message into the per-call context and longjmps to a setjmp in the same
 * C function that created the libpng structs, which then frees everything and returns
 * a status. No jump ever crosses a Swift frame: the read and write callbacks below are
 * plain C working on memory buffers.
 *
 * Variables changed between setjmp and a possible longjmp are volatile (C11 7.13.2.1).
 */

#include "rial_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rial_png_context {
    jmp_buf jump;
    char *message;
    size_t message_capacity;
    /* Reading: the whole file in memory. */
    const uint8_t *input;
    size_t input_size;
    size_t input_offset;
    /* Writing: a growing malloc'd buffer. */
    uint8_t *output;
    size_t output_size;
    size_t output_capacity;
} rial_png_context;

static void rial_png_set_message(rial_png_context *ctx, const char *text) {
    if (ctx->message == NULL || ctx->message_capacity == 0) return;
    snprintf(ctx->message, ctx->message_capacity, "%s", text != NULL ? text : "unknown error");
}

static void rial_png_on_error(png_structp png, png_const_charp text) {
    rial_png_context *ctx = (rial_png_context *)png_get_error_ptr(png);
    rial_png_set_message(ctx, text != NULL ? text : "unknown libpng error");
    longjmp(ctx->jump, 1);
}

static void rial_png_on_warning(png_structp png, png_const_charp text) {
    /* Warnings (bad ancillary chunks, ignored CRC on ancillary data) are not errors. */
    (void)png;
    (void)text;
}

static void rial_png_read_bytes(png_structp png, png_bytep destination, size_t count) {
    rial_png_context *ctx = (rial_png_context *)png_get_io_ptr(png);
    if (count > ctx->input_size - ctx->input_offset) {
        png_error(png, "unexpected end of file (truncated PNG)");
    }
    memcpy(destination, ctx->input + ctx->input_offset, count);
    ctx->input_offset += count;
}

static void rial_png_write_bytes(png_structp png, png_bytep source, size_t count) {
    rial_png_context *ctx = (rial_png_context *)png_get_io_ptr(png);
    if (count > ctx->output_capacity - ctx->output_size) {
        size_t capacity = ctx->output_capacity > 0 ? ctx->output_capacity : 4096;
        while (count > capacity - ctx->output_size) {
            if (capacity > SIZE_MAX / 2) png_error(png, "output too large");
            capacity *= 2;
        }
        uint8_t *grown = (uint8_t *)realloc(ctx->output, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        ctx->output = grown;
        ctx->output_capacity = capacity;
    }
    memcpy(ctx->output + ctx->output_size, source, count);
    ctx->output_size += count;
}

static void rial_png_flush(png_structp png) { (void)png; }

static int rial_png_host_is_little_endian(void) {
    const uint16_t probe = 1;
    return *(const uint8_t *)&probe == 1;
}

/*
 * Shared by read_info (pixels == NULL: stop after the header) and decode.
 */
static int rial_png_read(const uint8_t *data, size_t size, uint64_t max_pixels,
                         uint8_t *pixels, size_t pixels_size, rial_png_info *info,
                         char *message, size_t message_capacity) {
    rial_png_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.message = message;
    ctx.message_capacity = message_capacity;
    ctx.input = data;
    ctx.input_size = data != NULL ? size : 0;
    if (message != NULL && message_capacity > 0) message[0] = '\0';
    if (info == NULL) {
        rial_png_set_message(&ctx, "internal error: no info struct");
        return RIAL_PNG_ERR_ARGUMENT;
    }
    memset(info, 0, sizeof *info);

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx,
                                             rial_png_on_error, rial_png_on_warning);
    if (png == NULL) {
        rial_png_set_message(&ctx, "out of memory (png_create_read_struct)");
        return RIAL_PNG_ERR_NO_MEMORY;
    }
    png_infop png_info = png_create_info_struct(png);
    if (png_info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        rial_png_set_message(&ctx, "out of memory (png_create_info_struct)");
        return RIAL_PNG_ERR_NO_MEMORY;
    }

    png_bytep *volatile rows = NULL;
    volatile int status = RIAL_PNG_ERR_CORRUPT;

    if (setjmp(ctx.jump) != 0) {
        free(rows);
        png_destroy_read_struct(&png, &png_info, NULL);
        return status;
    }

    png_set_read_fn(png, &ctx, rial_png_read_bytes);
    png_read_info(png, png_info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, png_info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    int has_trns = png_get_valid(png, png_info, PNG_INFO_tRNS) != 0;

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16 && rial_png_host_is_little_endian()) png_set_swap(png);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, png_info);

    info->width = width;
    info->height = height;
    info->bit_depth = bit_depth;
    info->color_type = color_type;
    info->interlaced = interlace != PNG_INTERLACE_NONE;
    info->has_transparency = has_trns;
    info->decoded_channels = png_get_channels(png, png_info);
    info->decoded_bit_depth = png_get_bit_depth(png, png_info);

    if (pixels == NULL) {
        png_destroy_read_struct(&png, &png_info, NULL);
        return RIAL_PNG_OK;
    }

    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        char text[160];
        snprintf(text, sizeof text, "image is %lux%lu = %llu pixels, over the limit of %llu pixels",
                 (unsigned long)width, (unsigned long)height,
                 (unsigned long long)width * (unsigned long long)height,
                 (unsigned long long)max_pixels);
        rial_png_set_message(&ctx, text);
        png_destroy_read_struct(&png, &png_info, NULL);
        return RIAL_PNG_ERR_TOO_LARGE;
    }

    int channels = info->decoded_channels;
    int sample_bytes = info->decoded_bit_depth / 8;
    if (channels < 1 || channels > 4 || (sample_bytes != 1 && sample_bytes != 2)) {
        rial_png_set_message(&ctx, "unexpected decoded layout");
        png_destroy_read_struct(&png, &png_info, NULL);
        return RIAL_PNG_ERR_CORRUPT;
    }
    size_t row_bytes = (size_t)width * (size_t)channels * (size_t)sample_bytes;
    if (png_get_rowbytes(png, png_info) != row_bytes || pixels_size / row_bytes != height ||
        pixels_size % row_bytes != 0) {
        rial_png_set_message(&ctx, "internal error: pixel buffer size does not match the image");
        png_destroy_read_struct(&png, &png_info, NULL);
        return RIAL_PNG_ERR_ARGUMENT;
    }

    rows = (png_bytep *)malloc((size_t)height * sizeof(png_bytep));
    if (rows == NULL) {
        status = RIAL_PNG_ERR_NO_MEMORY;
        png_error(png, "out of memory (row pointers)");
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * row_bytes;

    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    png_destroy_read_struct(&png, &png_info, NULL);
    return RIAL_PNG_OK;
}

int rial_png_read_info(const uint8_t *data, size_t size, rial_png_info *info,
                       char *message, size_t message_capacity) {
    return rial_png_read(data, size, 0, NULL, 0, info, message, message_capacity);
}

int rial_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                    void *pixels, size_t pixels_size, rial_png_info *info,
                    char *message, size_t message_capacity) {
    if (pixels == NULL || pixels_size == 0) {
        if (message != NULL && message_capacity > 0) {
            snprintf(message, message_capacity, "internal error: no pixel buffer");
        }
        return RIAL_PNG_ERR_ARGUMENT;
    }
    return rial_png_read(data, size, max_pixels, (uint8_t *)pixels, pixels_size, info,
                         message, message_capacity);
}

int rial_png_encode(const void *pixels, size_t pixels_size, uint32_t width, uint32_t height,
                    int channels, int bit_depth, int compression_level,
                    uint8_t **out, size_t *out_size, char *message, size_t message_capacity) {
    rial_png_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.message = message;
    ctx.message_capacity = message_capacity;
    if (message != NULL && message_capacity > 0) message[0] = '\0';

    static const int color_types[5] = {
        0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGBA
    };
    if (out == NULL || out_size == NULL || pixels == NULL || width == 0 || height == 0 ||
        channels < 1 || channels > 4 || (bit_depth != 8 && bit_depth != 16) ||
        compression_level < 0 || compression_level > 9 ||
        width > PNG_USER_WIDTH_MAX || height > PNG_USER_HEIGHT_MAX) {
        rial_png_set_message(&ctx, "invalid arguments for PNG encoding");
        return RIAL_PNG_ERR_ARGUMENT;
    }
    *out = NULL;
    *out_size = 0;
    size_t row_bytes = (size_t)width * (size_t)channels * (size_t)(bit_depth / 8);
    if (pixels_size / row_bytes != height || pixels_size % row_bytes != 0) {
        rial_png_set_message(&ctx, "pixel buffer size does not match width x height x channels");
        return RIAL_PNG_ERR_ARGUMENT;
    }

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx,
                                              rial_png_on_error, rial_png_on_warning);
    if (png == NULL) {
        rial_png_set_message(&ctx, "out of memory (png_create_write_struct)");
        return RIAL_PNG_ERR_NO_MEMORY;
    }
    png_infop png_info = png_create_info_struct(png);
    if (png_info == NULL) {
        png_destroy_write_struct(&png, NULL);
        rial_png_set_message(&ctx, "out of memory (png_create_info_struct)");
        return RIAL_PNG_ERR_NO_MEMORY;
    }

    png_bytep *volatile rows = NULL;
    volatile int status = RIAL_PNG_ERR_CORRUPT;

    if (setjmp(ctx.jump) != 0) {
        free(rows);
        free(ctx.output);
        png_destroy_write_struct(&png, &png_info);
        return status;
    }

    png_set_write_fn(png, &ctx, rial_png_write_bytes, rial_png_flush);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, png_info, width, height, bit_depth, color_types[channels],
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, png_info);
    if (bit_depth == 16 && rial_png_host_is_little_endian()) png_set_swap(png);

    rows = (png_bytep *)malloc((size_t)height * sizeof(png_bytep));
    if (rows == NULL) {
        status = RIAL_PNG_ERR_NO_MEMORY;
        png_error(png, "out of memory (row pointers)");
    }
    /* libpng copies each row before transforming it, so the input is never written. */
    const uint8_t *base = (const uint8_t *)pixels;
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(uintptr_t)(base + (size_t)y * row_bytes);

    png_write_image(png, rows);
    png_write_end(png, NULL);

    free(rows);
    png_destroy_write_struct(&png, &png_info);
    *out = ctx.output;
    *out_size = ctx.output_size;
    return RIAL_PNG_OK;
}

void rial_png_free(void *buffer) { free(buffer); }

const char *rial_png_libpng_version(void) { return png_get_libpng_ver(NULL); }
