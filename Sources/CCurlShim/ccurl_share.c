/*
 * ccurl_share.c: typed wrappers over libcurl's share interface (see ccurl_share.h).
 */
#include "ccurl_share.h"
#include "ccurl_dyn.h"

#include <pthread.h>

/* One mutex per kind of data libcurl locks; every share of the process uses the same ones (there
 * is one share a run), which is correct for several shares too, only less concurrent. */
static pthread_mutex_t afcurl_share_locks[CURL_LOCK_DATA_LAST] = {
    [0 ... CURL_LOCK_DATA_LAST - 1] = PTHREAD_MUTEX_INITIALIZER,
};

static void afcurl_share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *user) {
    (void)handle;
    (void)access;
    (void)user;
    if ((unsigned)data < CURL_LOCK_DATA_LAST) pthread_mutex_lock(&afcurl_share_locks[data]);
}

static void afcurl_share_unlock(CURL *handle, curl_lock_data data, void *user) {
    (void)handle;
    (void)user;
    if ((unsigned)data < CURL_LOCK_DATA_LAST) pthread_mutex_unlock(&afcurl_share_locks[data]);
}

CURLSH *afcurl_cookie_share_init(void) {
    CURLSH *share = curl_share_init();
    if (share == NULL) return NULL;
    if (curl_share_setopt(share, CURLSHOPT_LOCKFUNC, afcurl_share_lock) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, afcurl_share_unlock) != CURLSHE_OK
        || curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE) != CURLSHE_OK) {
        curl_share_cleanup(share);
        return NULL;
    }
    return share;
}

CURLcode afcurl_setopt_share(CURL *handle, CURLSH *share) {
    return curl_easy_setopt(handle, CURLOPT_SHARE, share);
}

void afcurl_cookie_share_cleanup(CURLSH *share) {
    curl_share_cleanup(share);
}
