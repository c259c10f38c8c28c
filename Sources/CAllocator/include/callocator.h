/*
 * callocator.h: the process's malloc, glibc's until a run starts threads that trade memory, then
 * mimalloc's (Debian's libmimalloc, loaded on demand) for the allocations made from then on.
 */
#ifndef CALLOCATOR_H
#define CALLOCATOR_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Serves the allocations made from now on with mimalloc, when libmimalloc.so.2 can be loaded;
 * blocks allocated before stay glibc's and are freed by it. Returns 1 when mimalloc serves new
 * allocations, 0 when glibc still does (no libmimalloc, or a sanitizer build, whose runtime owns
 * malloc). Safe to call from any thread, any number of times; it never switches back.
 */
int afalloc_use_concurrent(void);

/* 1 when mimalloc serves new allocations. */
int afalloc_concurrent_active(void);

#ifdef __cplusplus
}
#endif

#endif /* CALLOCATOR_H */
