// spv_kernels.h -- the innermost loops of the rasteriser (spv_raster_kernels.h) and of the
// analysis (spv_dsp_kernels.h), each compiled for the x86-64 baseline (SSE2) and for AVX2
// from one source and chosen at run time by CPUID. Floating-point contraction is off, so
// both builds give the same numbers bit for bit.
#ifndef SPV_KERNELS_H
#define SPV_KERNELS_H

/// The kernels in use: 1 = AVX2, 0 = baseline.
int spv_kernel(void);
/// Forces the kernels (0 = baseline, 1 = AVX2 if the CPU has it, -1 = choose by CPUID);
/// returns the one now in use. For tests and benchmarks; call between frames or hops.
int spv_set_kernel(int which);

#endif
