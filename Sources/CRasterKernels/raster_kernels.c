// raster_kernels.c -- the span kernels twice (baseline and AVX2) and the CPUID dispatch.
#include "spv_raster_kernels.h"

// Same pixels from every kernel: no fused multiply-add, operations exactly as written.
#pragma STDC FP_CONTRACT OFF
#pragma clang fp contract(off)
// The 8-lane helpers below are always inlined, so no vector crosses a call boundary.
#pragma clang diagnostic ignored "-Wpsabi"

typedef float f8 __attribute__((ext_vector_type(8)));
typedef int i8 __attribute__((ext_vector_type(8)));

#define KNAME(x) x##_base
#define KATTR
#include "kernel_body.h"
#undef KNAME
#undef KATTR

#if defined(__x86_64__)
#define KNAME(x) x##_avx2
#define KATTR __attribute__((target("avx2,fma")))
#include "kernel_body.h"
#undef KNAME
#undef KATTR
#endif

static int chosen = -1;

static int cpu_kernel(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
#else
    return 0;
#endif
}

int spv_raster_set_kernel(int which) {
    int best = cpu_kernel();
    chosen = which < 0 ? best : (which > 0 ? best : 0);
    return chosen;
}

int spv_raster_kernel(void) {
    if (chosen < 0) chosen = cpu_kernel();
    return chosen;
}

void spv_blend_span(uint32_t *row, int xs, int xe, int width, int ox, spv_float4 base, spv_float4 dx) {
#if defined(__x86_64__)
    if (spv_raster_kernel() == 1) { blend_span_avx2(row, xs, xe, width, ox, base, dx); return; }
#endif
    blend_span_base(row, xs, xe, width, ox, base, dx);
}

void spv_lit_span(uint32_t *row, float *drow, int xs, int xe, int width, int ox,
                  spv_float4 cbase, spv_float4 cdx, spv_float4 nbase, spv_float4 ndx,
                  float z0, float zdx, spv_float4 light) {
#if defined(__x86_64__)
    if (spv_raster_kernel() == 1) {
        lit_span_avx2(row, drow, xs, xe, width, ox, cbase, cdx, nbase, ndx, z0, zdx, light);
        return;
    }
#endif
    lit_span_base(row, drow, xs, xe, width, ox, cbase, cdx, nbase, ndx, z0, zdx, light);
}
