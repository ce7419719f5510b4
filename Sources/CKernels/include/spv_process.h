// spv_process.h -- process calls Swift cannot import (prctl is variadic).
#ifndef SPV_PROCESS_H
#define SPV_PROCESS_H

/// Asks the kernel to send `sig` to this process when the thread that started it ends
/// (PR_SET_PDEATHSIG). Returns 0, or -1 with errno.
int spv_die_with_parent(int sig);

#endif
