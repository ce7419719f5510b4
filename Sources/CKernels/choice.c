// choice.c -- which build of the kernels runs: AVX2 when CPUID reports AVX2 and FMA.
#include "spv_kernels.h"

// Written by the first use or by spv_set_kernel, read by every thread.
static int chosen = -1;

static int cpu_kernel(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
#else
    return 0;
#endif
}

int spv_set_kernel(int which) {
    int best = cpu_kernel();
    int k = which < 0 ? best : (which > 0 ? best : 0);
    __atomic_store_n(&chosen, k, __ATOMIC_RELAXED);
    return k;
}

int spv_kernel(void) {
    int k = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (k < 0) {
        k = cpu_kernel();
        __atomic_store_n(&chosen, k, __ATOMIC_RELAXED);
    }
    return k;
}
