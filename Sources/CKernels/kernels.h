// kernels.h -- what every kernel file shares (internal): contraction off, the vector types,
// and the run-time choice between the baseline and the AVX2 build of a kernel.
//
// Each kernel file includes its body header twice, once per target, with KNAME(x) (the
// name suffix) and KATTR (the target attribute) defined: the same source, the same
// operations in the same order, only wider; with contraction off both give the same
// numbers bit for bit.
#ifndef SPV_KERNELS_INTERNAL_H
#define SPV_KERNELS_INTERNAL_H
#include "spv_kernels.h"

#pragma STDC FP_CONTRACT OFF
#pragma clang fp contract(off)
// The vector helpers are always inlined, so no vector crosses a call boundary.
#pragma clang diagnostic ignored "-Wpsabi"

typedef float f8 __attribute__((ext_vector_type(8)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef int i8 __attribute__((ext_vector_type(8)));
typedef int i4 __attribute__((ext_vector_type(4)));
typedef double d4 __attribute__((ext_vector_type(4)));

#define KATTR_AVX2 __attribute__((target("avx2,fma")))

/// Calls name_avx2 args or name_base args, by the kernel in use (`spv_kernel`).
#if defined(__x86_64__)
#define DISPATCH(name, args) (spv_kernel() == 1 ? name##_avx2 args : name##_base args)
#else
#define DISPATCH(name, args) (name##_base args)
#endif

#endif
