// raster_kernels.c -- the triangle kernels twice (baseline and AVX2).
#include <limits.h>
#include <string.h>
#include "kernels.h"
#include "spv_raster_kernels.h"

#define KERNEL_BODY "raster_body.h"
#include "twice.h"

void spv_blend_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width,
                        spv_float4 base, spv_float4 dy, spv_float4 dx) {
    DISPATCH(blend_triangle, (t, ry0, ry1, color, width, base, dy, dx));
}

void spv_fill_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width, uint32_t pixel) {
    DISPATCH(fill_triangle, (t, ry0, ry1, color, width, pixel));
}

void spv_fill32(uint32_t *p, uint32_t value, int64_t n) {
    DISPATCH(fill32, (p, value, n));
}

void spv_lit_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, float *depth, int width,
                      spv_float4 light, spv_hiz *hiz) {
    DISPATCH(lit_triangle, (t, ry0, ry1, color, depth, width, light, hiz));
}

int spv_setup_triangle(const spv_vertex *a, const spv_vertex *b, const spv_vertex *c, int lit, int check,
                       int width, int height, spv_triangle *out) {
    return DISPATCH(setup_triangle, (a, b, c, lit, check, width, height, out));
}

int spv_moved_rows_2d(const void *a, const void *b, int n, int height, int *rows) {
    return DISPATCH(moved_rows, ((const char *)a, (const char *)b, n, height, rows));
}
