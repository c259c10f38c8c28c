/*
 * ccurl_dyn.c: opens libcurl with dlopen the first time it is needed, instead of linking it.
 *
 * Loading libcurl means loading its whole dependency tree (Debian's pulls in GnuTLS, Kerberos,
 * LDAP, libssh2, brotli, zstd...), which costs several milliseconds at every start: most of
 * afcli's start-up. An answer from the response cache, `--offline` or `--help` needs none of it,
 * so the tree is loaded only when a transfer, a URL parse or a version question first needs it.
 */
#include "ccurl_shim.h"
#include "ccurl_dyn.h"

#include <dlfcn.h>
#include <pthread.h>

#define AFCURL_DYN_DEFINE(name) __typeof__(afcurl_dyn_##name) afcurl_dyn_##name = NULL;
AFCURL_DYN_FUNCTIONS(AFCURL_DYN_DEFINE)
#undef AFCURL_DYN_DEFINE

static pthread_once_t afcurl_load_once = PTHREAD_ONCE_INIT;
static int afcurl_loaded = 0;

static void afcurl_run_load(void) {
    /* Lazy binding, as the linked library had: a plain GET resolves only the calls it makes. */
    void *handle = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        return;
    }
#define AFCURL_DYN_LOOKUP(name)                                                                    \
    afcurl_dyn_##name = (__typeof__(afcurl_dyn_##name))dlsym(handle, #name);                     \
    if (afcurl_dyn_##name == NULL) {                                                               \
        return;                                                                                    \
    }
    AFCURL_DYN_FUNCTIONS(AFCURL_DYN_LOOKUP)
#undef AFCURL_DYN_LOOKUP
    afcurl_loaded = 1;
}

int afcurl_load(void) {
    pthread_once(&afcurl_load_once, afcurl_run_load);
    return afcurl_loaded;
}

/* MARK: - The calls Swift makes, loading libcurl first where a call can come first */

CURL *afcurl_easy_init(void) {
    return afcurl_load() ? curl_easy_init() : NULL;
}

void afcurl_easy_cleanup(CURL *handle) {
    curl_easy_cleanup(handle);
}

CURLcode afcurl_easy_perform(CURL *handle) {
    return curl_easy_perform(handle);
}

void afcurl_easy_reset(CURL *handle) {
    curl_easy_reset(handle);
}

const char *afcurl_easy_strerror(CURLcode code) {
    return afcurl_load() ? curl_easy_strerror(code) : "libcurl cannot be loaded";
}

struct curl_slist *afcurl_slist_append(struct curl_slist *list, const char *text) {
    return afcurl_load() ? curl_slist_append(list, text) : NULL;
}

void afcurl_slist_free_all(struct curl_slist *list) {
    if (list != NULL) {
        curl_slist_free_all(list);
    }
}

CURLU *afcurl_url(void) {
    return afcurl_load() ? curl_url() : NULL;
}

void afcurl_url_cleanup(CURLU *url) {
    curl_url_cleanup(url);
}

CURLUcode afcurl_url_set(CURLU *url, CURLUPart part, const char *content, unsigned int flags) {
    return curl_url_set(url, part, content, flags);
}

CURLUcode afcurl_url_get(const CURLU *url, CURLUPart part, char **content, unsigned int flags) {
    return curl_url_get(url, part, content, flags);
}

void afcurl_curl_free(void *pointer) {
    curl_free(pointer);
}

CURLM *afcurl_multi_init(void) {
    return afcurl_load() ? curl_multi_init() : NULL;
}

CURLMcode afcurl_multi_cleanup(CURLM *multi) {
    return curl_multi_cleanup(multi);
}

CURLMcode afcurl_multi_add_handle(CURLM *multi, CURL *handle) {
    return curl_multi_add_handle(multi, handle);
}

CURLMcode afcurl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return curl_multi_remove_handle(multi, handle);
}

CURLMcode afcurl_multi_perform(CURLM *multi, int *running) {
    return curl_multi_perform(multi, running);
}

CURLMcode afcurl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready) {
    return curl_multi_poll(multi, extra, count, timeout, ready);
}

const char *afcurl_multi_strerror(CURLMcode code) {
    return afcurl_load() ? curl_multi_strerror(code) : "libcurl cannot be loaded";
}
