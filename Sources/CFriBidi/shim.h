#ifndef SPV_FRIBIDI_SHIM_H
#define SPV_FRIBIDI_SHIM_H
#include <fribidi.h>
/* FriBidi's constants are macros built from other macros; Swift sees these. */
static inline FriBidiParType spv_fribidi_par_on(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiFlags spv_fribidi_flags_default(void) { return FRIBIDI_FLAGS_DEFAULT; }
#endif
