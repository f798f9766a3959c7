// Allocation counting by replacing malloc, as the GNU C library allows
// ("Replacing malloc", glibc manual §3.2.5): every function here forwards to
// glibc's own allocator (__libc_malloc and friends), so memory from either
// side can be freed by the other, and counts each allocation while counting
// is on: process-wide (one relaxed atomic increment) and per thread (a
// thread-local counter, so tests running in parallel do not see each
// other's allocations). Only with glibc; elsewhere it is inactive. Linked
// only into gym-train (bench) and the tests.
#define _GNU_SOURCE
#include "MallocCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdatomic.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static atomic_int counting;              // process-wide counting on
static atomic_uint_fast64_t allocations; // process-wide count
static _Thread_local int threadCounting; // this thread's counting on
static _Thread_local uint64_t threadAllocations;

static inline void count(void) {
    if (threadCounting) threadAllocations += 1;
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) { count(); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { count(); return __libc_realloc(p, size); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *p = __libc_memalign(alignment, size);
    if (p == NULL && size != 0) return ENOMEM;
    *out = p;
    return 0;
}

void malloc_counter_start_thread(void) {
    threadAllocations = 0;
    threadCounting = 1;
}

uint64_t malloc_counter_stop_thread(void) {
    threadCounting = 0;
    return threadAllocations;
}

void malloc_counter_start(void) {
    atomic_store(&allocations, 0);
    atomic_store(&counting, 1);
}

uint64_t malloc_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&allocations);
}

int malloc_counter_active(void) {
    // The process's malloc is the first definition in the global lookup
    // order; it is this file's when the executable exports it.
    return dlsym(RTLD_DEFAULT, "malloc") == (void *)&malloc;
}

#else
// Elsewhere (no glibc): no replacement; the counter reports itself inactive
// and counts nothing.
void malloc_counter_start(void) {}
uint64_t malloc_counter_stop(void) { return 0; }
void malloc_counter_start_thread(void) {}
uint64_t malloc_counter_stop_thread(void) { return 0; }
int malloc_counter_active(void) { return 0; }
#endif
