/*
 * ccurl_share.c: typed wrappers over libcurl's share interface (see ccurl_share.h).
 */
#include "ccurl_share.h"
#include "ccurl_dyn.h"

CURLSH *afcurl_cookie_share_init(void) {
    CURLSH *share = curl_share_init();
    if (share == NULL) return NULL;
    if (curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE) != CURLSHE_OK) {
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
