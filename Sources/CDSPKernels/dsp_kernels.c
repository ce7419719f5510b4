// dsp_kernels.c -- the analysis kernels twice (baseline and AVX2) and the CPUID dispatch.
#include "spv_dsp_kernels.h"

// Same numbers from every kernel: no fused multiply-add, operations exactly as written.
#pragma STDC FP_CONTRACT OFF
#pragma clang fp contract(off)
#pragma clang diagnostic ignored "-Wpsabi"

typedef float f8 __attribute__((ext_vector_type(8)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef double d4 __attribute__((ext_vector_type(4)));

#define KNAME(x) x##_base
#define KATTR
#include "dsp_body.h"
#undef KNAME
#undef KATTR

#if defined(__x86_64__)
#define KNAME(x) x##_avx2
#define KATTR __attribute__((target("avx2,fma")))
#include "dsp_body.h"
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

int spv_dsp_set_kernel(int which) {
    int best = cpu_kernel();
    int k = which < 0 ? best : (which > 0 ? best : 0);
    __atomic_store_n(&chosen, k, __ATOMIC_RELAXED);
    return k;
}

int spv_dsp_kernel(void) {
    int k = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (k < 0) {
        k = cpu_kernel();
        __atomic_store_n(&chosen, k, __ATOMIC_RELAXED);
    }
    return k;
}

#if defined(__x86_64__)
#define DISPATCH(name, args)                               \
    do {                                                   \
        if (spv_dsp_kernel() == 1) { name##_avx2 args; }   \
        else { name##_base args; }                         \
    } while (0)
#else
#define DISPATCH(name, args) name##_base args
#endif

void spv_real_fft(const float *input, float *re, float *im, int half, const int32_t *bitReverse,
                  float *zr, float *zi, const float *stageRe, const float *stageIm,
                  const float *splitRe, const float *splitIm) {
    DISPATCH(real_fft, (input, re, im, half, bitReverse, zr, zi, stageRe, stageIm, splitRe, splitIm));
}

void spv_goertzel_banks(const float *x, int n, const double *c0, const double *c1, const double *c2,
                        double *state) {
    DISPATCH(goertzel_banks, (x, n, c0, c1, c2, state));
}

void spv_lag_difference(const double *prefix, const float *acf, int n, int m, float *diff, double *diffD,
                        float *cmnd) {
    DISPATCH(lag_difference, (prefix, acf, n, m, diff, diffD, cmnd));
}

void spv_lag_pearson(const double *prefix, const float *acf, int n, int m, float *pearson) {
    DISPATCH(lag_pearson, (prefix, acf, n, m, pearson));
}

double spv_min_difference(const float *x, int n, int lo, int hi) {
#if defined(__x86_64__)
    if (spv_dsp_kernel() == 1) return min_difference_avx2(x, n, lo, hi);
#endif
    return min_difference_base(x, n, lo, hi);
}

double spv_energy(const float *x, int n) {
#if defined(__x86_64__)
    if (spv_dsp_kernel() == 1) return energy_avx2(x, n);
#endif
    return energy_base(x, n);
}

void spv_decimate2(const float *x, int n, const float *taps, int ntaps, float *out) {
    DISPATCH(decimate2, (x, n, taps, ntaps, out));
}

void spv_dft_bin(const float *x, const float *win, int n, double w, double *out) {
    DISPATCH(dft_bin, (x, win, n, w, out));
}

double spv_load_window(const float *x, int n, float *window, double *prefix) {
#if defined(__x86_64__)
    if (spv_dsp_kernel() == 1) return load_window_avx2(x, n, window, prefix);
#endif
    return load_window_base(x, n, window, prefix);
}

void spv_power_even(const float *re, const float *im, int n, float *out) {
    DISPATCH(power_even, (re, im, n, out));
}
