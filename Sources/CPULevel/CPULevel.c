#include "CPULevel.h"

int pbg_cpu_level(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4")) return 4;
    if (__builtin_cpu_supports("x86-64-v3")) return 3;
    if (__builtin_cpu_supports("x86-64-v2")) return 2;
    return 1;
#else
    return 0;
#endif
}
