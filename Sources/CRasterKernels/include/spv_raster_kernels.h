// spv_raster_kernels.h -- the rasteriser's innermost loops: one row span of 8-pixel blocks.
//
// Compiled twice from one source (kernel_body.h): for the x86-64 baseline (SSE2) and for
// AVX2, chosen at run time by CPUID. Floating-point contraction is off, so both give the
// same pixels bit for bit (the same IEEE operations in the same order, only wider).
#ifndef SPV_RASTER_KERNELS_H
#define SPV_RASTER_KERNELS_H
#include <stdint.h>

/// Imported into Swift as SIMD4<Float>.
typedef float spv_float4 __attribute__((ext_vector_type(4)));

/// 2D span: colour plane c(px) = base + dx·(px − ox) (straight RGBA), clamped to 0…1 and
/// blended src-alpha / one-minus-src-alpha over the opaque pixels row[xs…xe].
/// Requires width ≥ 8; pixels of the row outside xs…xe are read and written back unchanged.
void spv_blend_span(uint32_t *row, int xs, int xe, int width, int ox, spv_float4 base, spv_float4 dx);

/// Lit 3D span: depth z(px) = z0 + zdx·(px − ox) tested LESS against drow; colour/w, normal/w
/// and 1/w planes (base, d/dpx) as in the 2D span; Lambert with ambient 0.5 towards `light`
/// (normalised); opaque, no blending. Requires width ≥ 8.
void spv_lit_span(uint32_t *row, float *drow, int xs, int xe, int width, int ox,
                  spv_float4 cbase, spv_float4 cdx, spv_float4 nbase, spv_float4 ndx,
                  float z0, float zdx, spv_float4 light);

/// The kernel in use: 1 = AVX2, 0 = baseline.
int spv_raster_kernel(void);
/// Forces a kernel (0 = baseline, 1 = AVX2 if the CPU has it, -1 = choose by CPUID);
/// returns the one now in use. For tests and benchmarks; call between frames.
int spv_raster_set_kernel(int which);

#endif
