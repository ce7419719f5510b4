// spv_raster_kernels.h -- the rasteriser's innermost loops: one row span of 8-pixel blocks.
//
// Compiled twice from one source (raster_body.h): for the x86-64 baseline (SSE2) and for
// AVX2, chosen at run time by CPUID. Floating-point contraction is off, so both give the
// same pixels bit for bit (the same IEEE operations in the same order, only wider).
#ifndef SPV_RASTER_KERNELS_H
#define SPV_RASTER_KERNELS_H
#include <stdint.h>
#include "spv_kernels.h"

/// Imported into Swift as SIMD4<Float>.
typedef float spv_float4 __attribute__((ext_vector_type(4)));

/// One edge function E(px, py) = row + stepX·px + stepY·py at pixel centres (fixed point,
/// fill-rule bias folded into row; inside when E ≥ 0), with s = |stepX| and the exact
/// quotient/remainder stepY = dq·s + dm (0 ≤ dm < s) for the division-free row walk.
typedef struct {
    int64_t row, stepX, stepY, s, dq, dm;
} spv_edge;

/// A set-up triangle (see Raster/Triangle.swift): edges, pixel bounding box, and per
/// attribute a Float plane anchored at (minX, minY): a = (base + dy·(py − minY)) + dx·(px − minX).
typedef struct {
    spv_float4 cBase, cdx, cdy;   // colour (3D: colour/w)
    spv_float4 nBase, ndx, ndy;   // 3D: normal/w, w = 1/w
    spv_edge e[3];
    float zBase, zdx, zdy;        // 3D: z/w
    int32_t minX, maxX, minY, maxY;
    uint8_t lit;                  // 3D lit pipeline
    uint8_t flat;                 // 2D: the colour is cBase everywhere
} spv_triangle;

/// Rows ry0…ry1 of a 2D triangle: colour plane (base + dy·(py − minY)) + dx·(px − minX)
/// (the triangle's own planes, or a constant colour with dx = dy = 0), clamped to 0…1 and
/// blended src-alpha / one-minus-src-alpha over the opaque pixels. `color` is the frame
/// (row 0), `width` ≥ 8 pixels; pixels outside the triangle are read and written back unchanged.
void spv_blend_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width,
                        spv_float4 base, spv_float4 dy, spv_float4 dx);

/// Rows ry0…ry1 of a 2D triangle filled with one opaque pixel value.
void spv_fill_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width, uint32_t pixel);

/// A coarse depth buffer: per 8×8 tile of the depth buffer, the largest depth in it (valid
/// when `dirty` is 0; recomputed on demand). Lets a triangle that lies behind everything
/// already drawn over its bounding box be skipped without walking it: exact (a skipped
/// triangle would not have passed LESS at any pixel), so pixels do not change.
typedef struct {
    float *maxDepth;
    uint8_t *dirty;
    int tilesX;   // ⌈width / 8⌉
    int height;   // frame rows
} spv_hiz;

/// Rows ry0…ry1 of a lit 3D triangle: depth tested LESS against `depth` (and written),
/// perspective-correct colour and normal, Lambert with ambient 0.5 towards `light`
/// (normalised), opaque, no blending. `width` ≥ 8. `hiz` may be NULL; when given, its tiles
/// covering rows ry0…ry1 must be up to date or dirty, and ry0…ry1 must not share an 8-row
/// tile with rows another thread renders.
void spv_lit_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, float *depth, int width,
                      spv_float4 light, spv_hiz *hiz);

#endif
