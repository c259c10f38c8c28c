/*
 * ccurl_multi.c: typed wrappers over libcurl's multi interface (see ccurl_multi.h).
 */
#include "ccurl_multi.h"
#include "ccurl_dyn.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

CURLMcode afcurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

int afcurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result) {
    int remaining = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &remaining)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

void afcurl_keep_freed_memory(int mmap_threshold, int trim_threshold) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    mallopt(M_TRIM_THRESHOLD, trim_threshold);
#else
    (void)mmap_threshold;
    (void)trim_threshold;
#endif
}
