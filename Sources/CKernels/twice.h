// twice.h -- compiles the body header named by KERNEL_BODY twice: for the baseline
// (names suffixed _base) and, on x86-64, for AVX2 (_avx2). Include it after kernels.h with
// KERNEL_BODY defined, e.g. #define KERNEL_BODY "raster_body.h".
#define KNAME(x) x##_base
#define KATTR
#include KERNEL_BODY
#undef KNAME
#undef KATTR

#if defined(__x86_64__)
#define KNAME(x) x##_avx2
#define KATTR KATTR_AVX2
#include KERNEL_BODY
#undef KNAME
#undef KATTR
#endif
