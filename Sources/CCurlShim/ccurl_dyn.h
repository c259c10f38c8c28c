/*
 * ccurl_dyn.h: libcurl's functions as pointers filled by afcurl_load() (ccurl_dyn.c), for the
 * shim's own C files. Included after curl.h: each name below then means the loaded function, so
 * the C code reads as plain libcurl calls while the executable itself never links libcurl.
 */
#ifndef CCURL_DYN_H
#define CCURL_DYN_H

#include <curl/curl.h>

/* Every libcurl function afcli calls, from C or (through the afcurl_ wrappers) from Swift. */
#define AFCURL_DYN_FUNCTIONS(X)                                                                    \
    X(curl_global_init)                                                                            \
    X(curl_easy_init)                                                                              \
    X(curl_easy_cleanup)                                                                           \
    X(curl_easy_perform)                                                                           \
    X(curl_easy_reset)                                                                             \
    X(curl_easy_setopt)                                                                            \
    X(curl_easy_getinfo)                                                                           \
    X(curl_easy_strerror)                                                                          \
    X(curl_version_info)                                                                           \
    X(curl_free)                                                                                   \
    X(curl_slist_append)                                                                           \
    X(curl_slist_free_all)                                                                         \
    X(curl_url)                                                                                    \
    X(curl_url_cleanup)                                                                            \
    X(curl_url_get)                                                                                \
    X(curl_url_set)                                                                                \
    X(curl_multi_init)                                                                             \
    X(curl_multi_cleanup)                                                                          \
    X(curl_multi_add_handle)                                                                       \
    X(curl_multi_remove_handle)                                                                    \
    X(curl_multi_perform)                                                                          \
    X(curl_multi_poll)                                                                             \
    X(curl_multi_setopt)                                                                           \
    X(curl_multi_info_read)                                                                        \
    X(curl_multi_strerror)                                                                         \
    X(curl_share_init)                                                                             \
    X(curl_share_setopt)                                                                           \
    X(curl_share_cleanup)

/* curl.h may define some of these as type-checking macros (typecheck-gcc.h). */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_multi_setopt
#undef curl_share_setopt

#define AFCURL_DYN_DECLARE(name) extern __typeof__(name) *afcurl_dyn_##name;
AFCURL_DYN_FUNCTIONS(AFCURL_DYN_DECLARE)
#undef AFCURL_DYN_DECLARE

#define curl_global_init (*afcurl_dyn_curl_global_init)
#define curl_easy_init (*afcurl_dyn_curl_easy_init)
#define curl_easy_cleanup (*afcurl_dyn_curl_easy_cleanup)
#define curl_easy_perform (*afcurl_dyn_curl_easy_perform)
#define curl_easy_reset (*afcurl_dyn_curl_easy_reset)
#define curl_easy_setopt (*afcurl_dyn_curl_easy_setopt)
#define curl_easy_getinfo (*afcurl_dyn_curl_easy_getinfo)
#define curl_easy_strerror (*afcurl_dyn_curl_easy_strerror)
#define curl_version_info (*afcurl_dyn_curl_version_info)
#define curl_free (*afcurl_dyn_curl_free)
#define curl_slist_append (*afcurl_dyn_curl_slist_append)
#define curl_slist_free_all (*afcurl_dyn_curl_slist_free_all)
#define curl_url (*afcurl_dyn_curl_url)
#define curl_url_cleanup (*afcurl_dyn_curl_url_cleanup)
#define curl_url_get (*afcurl_dyn_curl_url_get)
#define curl_url_set (*afcurl_dyn_curl_url_set)
#define curl_multi_init (*afcurl_dyn_curl_multi_init)
#define curl_multi_cleanup (*afcurl_dyn_curl_multi_cleanup)
#define curl_multi_add_handle (*afcurl_dyn_curl_multi_add_handle)
#define curl_multi_remove_handle (*afcurl_dyn_curl_multi_remove_handle)
#define curl_multi_perform (*afcurl_dyn_curl_multi_perform)
#define curl_multi_poll (*afcurl_dyn_curl_multi_poll)
#define curl_multi_setopt (*afcurl_dyn_curl_multi_setopt)
#define curl_multi_info_read (*afcurl_dyn_curl_multi_info_read)
#define curl_multi_strerror (*afcurl_dyn_curl_multi_strerror)
#define curl_share_init (*afcurl_dyn_curl_share_init)
#define curl_share_setopt (*afcurl_dyn_curl_share_setopt)
#define curl_share_cleanup (*afcurl_dyn_curl_share_cleanup)

#endif /* CCURL_DYN_H */
