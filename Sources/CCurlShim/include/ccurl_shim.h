/*
 * ccurl_shim.h: the only C surface AFCurl sees.
 *
 * curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call, so each argument
 * kind gets one typed, non-variadic wrapper. curl.h is included whole so Swift sees libcurl's own
 * constants (CURLOPT_*, CURLINFO_*, CURLE_*) instead of hand-made copies. Process-wide state
 * (the interrupt flag, one-time global init) lives here because Swift 6 forbids mutable globals.
 */
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Constants that curl.h spells as casts or shifts, which Swift does not import. */
static const unsigned long AFCURL_AUTH_DIGEST = CURLAUTH_DIGEST;
static const unsigned long AFCURL_AUTH_NTLM = CURLAUTH_NTLM;
static const unsigned long AFCURL_AUTH_NEGOTIATE = CURLAUTH_NEGOTIATE;
static const size_t AFCURL_READFUNC_ABORT = CURL_READFUNC_ABORT;
static const size_t AFCURL_WRITEFUNC_ERROR = CURL_WRITEFUNC_ERROR;
static const long AFCURL_HSTS_ENABLE = CURLHSTS_ENABLE;
static const long AFCURL_NETRC_OPTIONAL = CURL_NETRC_OPTIONAL;

/*
 * libcurl is opened with dlopen on first use (ccurl_dyn.c), not linked. afcurl_load() opens it
 * once and returns nonzero when it could.
 */
int afcurl_load(void);

/*
 * The libcurl calls Swift makes, through the loaded library. The ones a program can call first
 * (easy_init, multi_init, url, slist_append, the strerrors) load it, and fail (NULL, or a fixed
 * message) when it cannot be loaded.
 */
CURL *afcurl_easy_init(void);
void afcurl_easy_cleanup(CURL *handle);
CURLcode afcurl_easy_perform(CURL *handle);
void afcurl_easy_reset(CURL *handle);
const char *afcurl_easy_strerror(CURLcode code);
struct curl_slist *afcurl_slist_append(struct curl_slist *list, const char *text);
void afcurl_slist_free_all(struct curl_slist *list);
CURLU *afcurl_url(void);
void afcurl_url_cleanup(CURLU *url);
CURLUcode afcurl_url_set(CURLU *url, CURLUPart part, const char *content, unsigned int flags);
CURLUcode afcurl_url_get(const CURLU *url, CURLUPart part, char **content, unsigned int flags);
void afcurl_curl_free(void *pointer);
CURLM *afcurl_multi_init(void);
CURLMcode afcurl_multi_cleanup(CURLM *multi);
CURLMcode afcurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode afcurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode afcurl_multi_perform(CURLM *multi, int *running);
CURLMcode afcurl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready);
const char *afcurl_multi_strerror(CURLMcode code);

/*
 * Runs curl_global_init(CURL_GLOBAL_DEFAULT) once per process (loading libcurl first); returns
 * its result every time, CURLE_FAILED_INIT when libcurl cannot be loaded.
 */
CURLcode afcurl_global_init(void);

/* Typed setopt wrappers, one per argument kind. */
CURLcode afcurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode afcurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode afcurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode afcurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode afcurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
/* For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION. */
CURLcode afcurl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode afcurl_setopt_read_function(CURL *handle, curl_read_callback callback);
CURLcode afcurl_setopt_seek_function(CURL *handle, curl_seek_callback callback);
CURLcode afcurl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback);
CURLcode afcurl_setopt_debug_function(CURL *handle, curl_debug_callback callback);
/* CURLOPT_PREREQFUNCTION (libcurl 7.80): called when the request is about to be sent. */
CURLcode afcurl_setopt_prereq_function(CURL *handle, curl_prereq_callback callback);

/* Typed getinfo wrappers; the string is owned by the handle and valid until the next transfer. */
CURLcode afcurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode afcurl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode afcurl_getinfo_string(CURL *handle, CURLINFO info, const char **value);
/* CURLINFO_COOKIELIST and other list infos; free the list with curl_slist_free_all. */
CURLcode afcurl_getinfo_slist(CURL *handle, CURLINFO info, struct curl_slist **value);

/*
 * The Accept-Encoding value this libcurl can decode: "gzip, deflate" with libz, "br" with
 * brotli, "zstd" with zstd, joined by ", "; "" when it can decode nothing. Static storage.
 */
const char *afcurl_supported_encodings(void);

/*
 * Converts a UTF-8 host name to ASCII with IDNA (UTS #46, as libcurl does); returns 0 and sets
 * *ascii (free it with afcurl_idna_free) on success, else a libidn2 error code.
 */
/* Returned by afcurl_idna_to_ascii when libidn2 cannot be loaded (no libidn2 code is this low). */
#define AFCURL_IDNA_UNAVAILABLE (-9999)
int afcurl_idna_to_ascii(const char *utf8, char **ascii);
/* libidn2's English text for an error code. */
const char *afcurl_idna_strerror(int code);
void afcurl_idna_free(char *ascii);

/* Whether this libcurl can answer a challenge of the scheme (a CURLAUTH_ value): NTLM needs its
 * NTLM feature, Negotiate its SPNEGO and GSS-API features. */
int afcurl_supports_auth(unsigned long scheme);
/* The libcurl version string, e.g. "7.88.1". */
const char *afcurl_version(void);

/* Nonzero when this libcurl was built with HTTP/3 (CURL_VERSION_HTTP3). */
int afcurl_supports_http3(void);

/*
 * Installs SIGINT and SIGTERM handlers without SA_RESTART, so a blocking read returns EINTR.
 * The first signal only sets a flag; a second one restores the default action and re-raises it,
 * so a stuck process still dies on a repeated Ctrl-C.
 */
void afcurl_install_interrupt_handlers(void);

/* Nonzero once SIGINT or SIGTERM has arrived. */
int afcurl_interrupted(void);

/* The signal that interrupted the process (SIGINT or SIGTERM), or 0. */
int afcurl_interrupt_signal(void);

/* Clears the interrupt flag (tests, or a caller that handled the interrupt). */
void afcurl_clear_interrupt(void);

#ifdef __cplusplus
}
#endif

#endif /* CCURL_SHIM_H */
