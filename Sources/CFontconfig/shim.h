#ifndef SPV_FONTCONFIG_SHIM_H
#define SPV_FONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>
#endif
