#ifndef SPV_PNG_SHIM_H
#define SPV_PNG_SHIM_H
#include <png.h>
#include <string.h>
/* The simplified png_image API reports errors by status, never longjmp into Swift. */
static inline png_image spv_png_image_rgba(unsigned w, unsigned h) {
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    img.format = PNG_FORMAT_RGBA;
    return img;
}
static inline png_image spv_png_image_empty(void) {
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    return img;
}
static inline unsigned spv_png_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline int spv_png_failed(const png_image *img) { return PNG_IMAGE_FAILED(*img); }
#endif
