/*
 * ccurl_share.c: typed wrappers over libcurl's share interface (see ccurl_share.h).
 */
#include "ccurl_share.h"
#include "ccurl_dyn.h"

CURLSH *afcurl_transfer_share_init(int *shares_hsts) {
    CURLSH *share = curl_share_init();
    if (share == NULL) return NULL;
    if (curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE) != CURLSHE_OK) {
        curl_share_cleanup(share);
        return NULL;
    }
    /* CURL_LOCK_DATA_HSTS is libcurl 7.88's; an older one refuses it, and each handle keeps a
       cache of its own. */
    *shares_hsts = curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_HSTS) == CURLSHE_OK;
    return share;
}

CURLcode afcurl_setopt_share(CURL *handle, CURLSH *share) {
    return curl_easy_setopt(handle, CURLOPT_SHARE, share);
}

void afcurl_transfer_share_cleanup(CURLSH *share) {
    curl_share_cleanup(share);
}
