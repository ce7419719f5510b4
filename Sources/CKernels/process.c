#include "spv_process.h"
#include <sys/prctl.h>

int spv_die_with_parent(int sig) { return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL); }
