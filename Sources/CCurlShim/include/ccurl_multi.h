/*
 * ccurl_multi.h: typed wrappers over libcurl's multi interface.
 *
 * curl_multi_setopt is variadic and CURLMsg carries a union, neither of which Swift calls or reads
 * reliably, so each gets a small non-variadic C function here.
 */
#ifndef CCURL_MULTI_H
#define CCURL_MULTI_H

#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CURLPIPE_MULTIPLEX, which curl.h spells as a macro Swift may not import. */
static const long AFCURL_PIPE_MULTIPLEX = CURLPIPE_MULTIPLEX;

/* Typed curl_multi_setopt for long options (CURLMOPT_MAX_TOTAL_CONNECTIONS, CURLMOPT_PIPELINING). */
CURLMcode afcurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/*
 * Reads the next "transfer done" message of the multi handle: returns 1 and sets *easy and
 * *result when there was one, 0 when the queue holds no more.
 */
int afcurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result);

/*
 * Tells glibc's allocator to serve requests below mmap_threshold bytes from the heap and to keep
 * up to trim_threshold bytes free at its top (mallopt M_MMAP_THRESHOLD and M_TRIM_THRESHOLD),
 * so that memory freed by one transfer serves the next. Does nothing with another C library.
 */
void afcurl_keep_freed_memory(int mmap_threshold, int trim_threshold);

#ifdef __cplusplus
}
#endif

#endif /* CCURL_MULTI_H */
