#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H
#include <stdint.h>

/// Counting of heap allocations (malloc, calloc, realloc, posix_memalign,
/// aligned_alloc, memalign) by every thread of the process, for checking that
/// hot loops allocate nothing. See MallocCounter.c.
void malloc_counter_start(void);
/// Stops counting and returns the allocations counted since the last start.
uint64_t malloc_counter_stop(void);
/// The same for the calling thread's allocations only (other threads, e.g.
/// tests running in parallel, are not counted).
void malloc_counter_start_thread(void);
uint64_t malloc_counter_stop_thread(void);
/// Whether this process's malloc is the counting one (it is when the target
/// is linked into the executable; 0 means counts cannot be trusted).
int malloc_counter_active(void);

#endif
