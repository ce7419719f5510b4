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

/// A vertex after the vertex stage (Raster's ShadedVertex): clip-space position, colour,
/// normal (xyz; 3D only).
typedef struct {
    spv_float4 position, color, normal;
} spv_vertex;

/// Clip-space guard band: triangles are clipped to |x|, |y| ≤ SPV_GUARD_BAND·w, far enough
/// outside any frame that clipping there never changes covered pixels, and close enough
/// that snapped coordinates fit the edge functions' fixed point.
#define SPV_GUARD_BAND 64

/// What spv_setup_triangle did.
enum {
    SPV_SETUP_EMPTY = 0,        // covers no pixel centre of the frame (*out undefined)
    SPV_SETUP_DONE = 1,         // set up in *out
    SPV_SETUP_CLIP = -1,        // (check only) outside the guard band or, when lit, the near/far planes
    SPV_SETUP_NOT_FINITE = -2,  // (check only) a position or colour is not finite
};

/// Sets up the triangle a, b, c into *out: perspective divide and viewport transform (y down,
/// pixel centres at +0.5), snapping to 1/256 px, edge functions with the top-left rule, the
/// pixel bounding box clipped to width×height, and the attribute planes (3D: colour/w,
/// normal/w and 1/w, z/w). Both windings are drawn. With `check`, first returns
/// SPV_SETUP_NOT_FINITE or SPV_SETUP_CLIP for a triangle that cannot be set up as it is;
/// without, the vertices must be finite and inside (a clipper's output).
int spv_setup_triangle(const spv_vertex *a, const spv_vertex *b, const spv_vertex *c, int lit, int check,
                       int width, int height, spv_triangle *out);

/// Whether the 2D vertices b[0…n−1] (32 bytes: x, y, padding, colour; clip position
/// (x, y, 0, 1)) are a[0…n−1] moved down by the same whole number of pixel rows (up when
/// negative), as triangle setup would place them: x and colour the same, bit for bit, and
/// every screen y, snapped to 1/256 px as setup snaps it, `*rows` rows lower, with every
/// vertex of both inside rows 0…height (so that no triangle is clipped and setup's results
/// move with them exactly). `*rows` on entry: the shift to check, or INT_MIN to take it from
/// the first vertex; on return, the shift found. 0 when they are not.
int spv_moved_rows_2d(const void *a, const void *b, int n, int height, int *rows);

/// Rows ry0…ry1 of a 2D triangle: colour plane (base + dy·(py − minY)) + dx·(px − minX)
/// (the triangle's own planes, or a constant colour with dx = dy = 0), clamped to 0…1 and
/// blended src-alpha / one-minus-src-alpha over the opaque pixels. `color` is the frame
/// (row 0), `width` ≥ 8 pixels; pixels outside the triangle are read and written back unchanged.
void spv_blend_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width,
                        spv_float4 base, spv_float4 dy, spv_float4 dx);

/// Rows ry0…ry1 of a 2D triangle filled with one opaque pixel value.
void spv_fill_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width, uint32_t pixel);

/// Stores `value` into p[0…n−1] (a band's clear colour, or a depth of 1.0 as its bits):
/// 32-byte stores with AVX2, where the compiler's fill of 32-bit values uses 16-byte ones.
void spv_fill32(uint32_t *p, uint32_t value, int64_t n);

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

/// Asks the CPU to fetch triangle *t (every cache line of it) into the caches: a hint with
/// no effect on results. The band loop names the triangle after the next one, so that its
/// ~290-byte record is on its way while the next one is drawn (a frame's records do not
/// fit the L2 cache; surface+ reads each 1.6 times, once per band it spans).
static inline void spv_prefetch_triangle(const spv_triangle *t) {
    const char *p = (const char *)t;
    for (unsigned k = 0; k < sizeof(spv_triangle); k += 64) __builtin_prefetch(p + k);
    __builtin_prefetch(p + sizeof(spv_triangle) - 1);
}

#endif
