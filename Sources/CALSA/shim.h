#ifndef SPV_ALSA_SHIM_H
#define SPV_ALSA_SHIM_H
#include <alsa/asoundlib.h>
/* alsa-lib prints to stderr on errors; we report errors ourselves. */
static void spv_alsa_silent_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void spv_alsa_silence(void) { snd_lib_error_set_handler(spv_alsa_silent_handler); }
#endif
