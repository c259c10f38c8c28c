/*
 * allocator.c: the malloc family of the whole process, libraries included (the executable
 * exports these symbols, and the dynamic loader binds every library's malloc to the executable's
 * first: glibc's documented way to replace malloc).
 *
 * Why two allocators. In a run with parallel lanes, requests are allocated on one thread and
 * freed on another, and responses the other way round; glibc's allocator then takes the slow path
 * of another thread's arena for most of them, and mimalloc, whose frees to another thread are a
 * lock-free push, saves about a tenth of such a run's time. But mimalloc touches more memory at
 * start (a page of its own for every size of block, each begun across two 4 KiB pages): loaded
 * into every process it cost a single request about 50 page faults and 3 % of its time. So every
 * process starts on glibc's allocator, and a run switches to mimalloc before it starts its lanes.
 *
 * After the switch, a block is freed (or reallocated, or measured) by the allocator that made it:
 * mimalloc knows its own blocks (mi_is_in_heap_region, a lookup in its segment map), and every
 * other block is glibc's. The switch is one pointer, published once with release ordering.
 */
#define _GNU_SOURCE
#include "callocator.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define AFALLOC_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define AFALLOC_SANITIZED 1
#endif

#ifdef AFALLOC_SANITIZED

/* The sanitizer's runtime defines malloc; this file must not. */
int afalloc_use_concurrent(void) { return 0; }
int afalloc_concurrent_active(void) { return 0; }

#else

/* glibc's allocator under the names it exports for allocators that wrap it. */
extern void *__libc_malloc(size_t size);
extern void __libc_free(void *block);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *block, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

/* mimalloc's entry points, looked up once, and the arena reserved for it: a block inside the
 * arena is mimalloc's without asking it (most frees), one outside is asked about. */
struct concurrent_allocator {
    uintptr_t arena_start;
    uintptr_t arena_size;
    void *(*malloc)(size_t size);
    void *(*calloc)(size_t count, size_t size);
    void *(*realloc)(void *block, size_t size);
    void (*free)(void *block);
    void *(*malloc_aligned)(size_t size, size_t alignment);
    size_t (*usable_size)(const void *block);
    bool (*owns)(const void *block);
};

static struct concurrent_allocator mimalloc;
static _Atomic(const struct concurrent_allocator *) concurrent = NULL;

static inline const struct concurrent_allocator *active(void) {
    return atomic_load_explicit(&concurrent, memory_order_acquire);
}

/* glibc's malloc_usable_size, which this file's own definition hides: found with RTLD_NEXT by a
 * constructor, before main (dlsym may allocate, through malloc below, which is fine). */
static _Atomic(size_t (*)(void *)) libc_usable_size_function = NULL;

static size_t libc_usable_size(void *block) {
    size_t (*function)(void *) = atomic_load_explicit(&libc_usable_size_function, memory_order_relaxed);
    if (function == NULL) {
        function = (size_t (*)(void *))dlsym(RTLD_NEXT, "malloc_usable_size");
        if (function == NULL) return 0;
        atomic_store_explicit(&libc_usable_size_function, function, memory_order_relaxed);
    }
    return block == NULL ? 0 : function(block);
}

__attribute__((constructor)) static void find_libc_usable_size(void) { (void)libc_usable_size(NULL); }

void *malloc(size_t size) {
    const struct concurrent_allocator *allocator = active();
    return allocator ? allocator->malloc(size) : __libc_malloc(size);
}

/* Whether `block` (not NULL) is mimalloc's. */
static inline bool owned(const struct concurrent_allocator *allocator, void *block) {
    return (uintptr_t)block - allocator->arena_start < allocator->arena_size || allocator->owns(block);
}

/* A block outside mimalloc's arena: apart, so that free itself saves no registers. */
__attribute__((noinline)) static void free_outside_arena(const struct concurrent_allocator *allocator, void *block) {
    if (allocator->owns(block)) {
        allocator->free(block);
    } else {
        __libc_free(block);
    }
}

void free(void *block) {
    const struct concurrent_allocator *allocator = active();
    if (allocator == NULL) {
        __libc_free(block);
    } else if ((uintptr_t)block - allocator->arena_start < allocator->arena_size) {
        allocator->free(block);
    } else if (block != NULL) {
        /* (libcurl frees NULL about three times as often as a block.) */
        free_outside_arena(allocator, block);
    }
}

void *calloc(size_t count, size_t size) {
    const struct concurrent_allocator *allocator = active();
    return allocator ? allocator->calloc(count, size) : __libc_calloc(count, size);
}

void *realloc(void *block, size_t size) {
    const struct concurrent_allocator *allocator = active();
    if (allocator == NULL) return __libc_realloc(block, size);
    if (block == NULL || owned(allocator, block)) return allocator->realloc(block, size);
    /* A glibc block from before the switch: it moves to mimalloc. glibc's realloc(block, 0)
     * frees and returns NULL; so does this. */
    if (size == 0) {
        __libc_free(block);
        return NULL;
    }
    void *moved = allocator->malloc(size);
    if (moved == NULL) return NULL;
    size_t kept = libc_usable_size(block);
    memcpy(moved, block, kept < size ? kept : size);
    __libc_free(block);
    return moved;
}

void *reallocarray(void *block, size_t count, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(block, bytes);
}

size_t malloc_usable_size(void *block) {
    if (block == NULL) return 0;
    const struct concurrent_allocator *allocator = active();
    if (allocator && owned(allocator, block)) return allocator->usable_size(block);
    return libc_usable_size(block);
}

static void *aligned(size_t alignment, size_t size) {
    const struct concurrent_allocator *allocator = active();
    return allocator ? allocator->malloc_aligned(size, alignment) : __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) { return aligned(alignment, size); }

void *aligned_alloc(size_t alignment, size_t size) { return aligned(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *block = aligned(alignment, size);
    if (block == NULL) return ENOMEM;
    *result = block;
    return 0;
}

void *valloc(size_t size) { return aligned((size_t)sysconf(_SC_PAGESIZE), size); }

void *pvalloc(size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t rounded;
    if (__builtin_add_overflow(size, page - 1, &rounded)) {
        errno = ENOMEM;
        return NULL;
    }
    return aligned(page, rounded & ~(page - 1));
}

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load_mimalloc(void) {
    /* RTLD_LOCAL: its own malloc symbols (Debian builds it to override malloc) stay out of the
     * global scope, so nothing binds to them; only the mi_ functions below are used. */
    void *handle = dlopen("libmimalloc.so.2", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return;
    mimalloc.malloc = (__typeof__(mimalloc.malloc))dlsym(handle, "mi_malloc");
    mimalloc.calloc = (__typeof__(mimalloc.calloc))dlsym(handle, "mi_calloc");
    mimalloc.realloc = (__typeof__(mimalloc.realloc))dlsym(handle, "mi_realloc");
    mimalloc.free = (__typeof__(mimalloc.free))dlsym(handle, "mi_free");
    mimalloc.malloc_aligned = (__typeof__(mimalloc.malloc_aligned))dlsym(handle, "mi_malloc_aligned");
    mimalloc.usable_size = (__typeof__(mimalloc.usable_size))dlsym(handle, "mi_usable_size");
    mimalloc.owns = (__typeof__(mimalloc.owns))dlsym(handle, "mi_is_in_heap_region");
    int (*reserve)(size_t, bool, bool, bool, int *) =
        (__typeof__(reserve))dlsym(handle, "mi_reserve_os_memory_ex");
    void *(*area)(int, size_t *) = (__typeof__(area))dlsym(handle, "mi_arena_area");
    if (!(mimalloc.malloc && mimalloc.calloc && mimalloc.realloc && mimalloc.free && mimalloc.malloc_aligned &&
          mimalloc.usable_size && mimalloc.owns)) {
        return;
    }
    /* 1 GiB of address space, committed as mimalloc uses it; it takes its segments from there
     * first. Without it (an address-space limit), every free asks mimalloc. */
    int arena = 0;
    size_t size = 0;
    void *start = NULL;
    if (reserve && area && reserve((size_t)1 << 30, false, false, false, &arena) == 0) start = area(arena, &size);
    if (start != NULL) {
        mimalloc.arena_start = (uintptr_t)start;
        mimalloc.arena_size = size;
    }
    atomic_store_explicit(&concurrent, &mimalloc, memory_order_release);
}

int afalloc_use_concurrent(void) {
    pthread_once(&load_once, load_mimalloc);
    return active() != NULL;
}

int afalloc_concurrent_active(void) { return active() != NULL; }

#endif
