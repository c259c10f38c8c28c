/*
 * ccurl_share.h: typed wrappers over libcurl's share interface.
 *
 * curl_share_setopt and curl_easy_setopt are variadic, which Swift cannot call, so the few calls
 * afcli makes get small non-variadic C functions here.
 */
#ifndef CCURL_SHARE_H
#define CCURL_SHARE_H

#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A share handle that shares libcurl's cookie engine (CURLSHOPT_SHARE with CURL_LOCK_DATA_COOKIE)
 * and, where libcurl can (7.88 and later: `*shares_hsts` is then 1, else 0), its HSTS cache
 * (CURL_LOCK_DATA_HSTS); NULL when libcurl cannot create or configure one. It has no lock
 * callbacks: every transfer attached to it runs on one thread.
 */
CURLSH *afcurl_transfer_share_init(int *shares_hsts);

/* Frees a share made by afcurl_transfer_share_init; no transfer may still be attached. */
void afcurl_transfer_share_cleanup(CURLSH *share);

/* Attaches the transfer `handle` to `share` (CURLOPT_SHARE), or detaches it when share is NULL. */
CURLcode afcurl_setopt_share(CURL *handle, CURLSH *share);

#ifdef __cplusplus
}
#endif

#endif /* CCURL_SHARE_H */
