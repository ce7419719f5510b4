// raster_kernels.c -- the triangle kernels twice (baseline and AVX2) and the CPUID dispatch.
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

// Written by the first use or by spv_raster_set_kernel, read by every rendering thread.
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
    int k = which < 0 ? best : (which > 0 ? best : 0);
    __atomic_store_n(&chosen, k, __ATOMIC_RELAXED);
    return k;
}

int spv_raster_kernel(void) {
    int k = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (k < 0) {
        k = cpu_kernel();
        __atomic_store_n(&chosen, k, __ATOMIC_RELAXED);
    }
    return k;
}

#if defined(__x86_64__)
#define DISPATCH(name, args)                                \
    do {                                                    \
        if (spv_raster_kernel() == 1) { name##_avx2 args; } \
        else { name##_base args; }                          \
    } while (0)
#else
#define DISPATCH(name, args) name##_base args
#endif

void spv_blend_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width,
                        spv_float4 base, spv_float4 dy, spv_float4 dx) {
    DISPATCH(blend_triangle, (t, ry0, ry1, color, width, base, dy, dx));
}

void spv_fill_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, int width, uint32_t pixel) {
    DISPATCH(fill_triangle, (t, ry0, ry1, color, width, pixel));
}

void spv_lit_triangle(const spv_triangle *t, int ry0, int ry1, uint32_t *color, float *depth, int width,
                      spv_float4 light, spv_hiz *hiz) {
    DISPATCH(lit_triangle, (t, ry0, ry1, color, depth, width, light, hiz));
}
