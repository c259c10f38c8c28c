/*
 * ccurl_shim.c: typed wrappers over libcurl's variadic calls, plus the process-wide state that
 * Swift 6 cannot hold in globals (one-time init, the interrupt flag set by signal handlers).
 */
#include "ccurl_shim.h"
#include "ccurl_dyn.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

/* MARK: - Global init */

static pthread_once_t afcurl_init_once = PTHREAD_ONCE_INIT;
static CURLcode afcurl_init_result = CURLE_OK;

static void afcurl_run_global_init(void) {
    afcurl_init_result = afcurl_load() ? curl_global_init(CURL_GLOBAL_DEFAULT) : CURLE_FAILED_INIT;
}

CURLcode afcurl_global_init(void) {
    pthread_once(&afcurl_init_once, afcurl_run_global_init);
    return afcurl_init_result;
}

/* MARK: - setopt */

CURLcode afcurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afcurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afcurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afcurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afcurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode afcurl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode afcurl_setopt_read_function(CURL *handle, curl_read_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}

CURLcode afcurl_setopt_seek_function(CURL *handle, curl_seek_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}

CURLcode afcurl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode afcurl_setopt_prereq_function(CURL *handle, curl_prereq_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}

CURLcode afcurl_setopt_debug_function(CURL *handle, curl_debug_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}

/* MARK: - getinfo */

CURLcode afcurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode afcurl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode afcurl_getinfo_slist(CURL *handle, CURLINFO info, struct curl_slist **value) {
    struct curl_slist *list = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &list);
    *value = list;
    return code;
}

CURLcode afcurl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    char *text = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &text);
    *value = text;
    return code;
}

/* MARK: - Version and features */

static pthread_once_t afcurl_encodings_once = PTHREAD_ONCE_INIT;
static char afcurl_encodings[64];

static void afcurl_append_encoding(const char *name) {
    if (afcurl_encodings[0] != '\0') {
        strncat(afcurl_encodings, ", ", sizeof(afcurl_encodings) - strlen(afcurl_encodings) - 1);
    }
    strncat(afcurl_encodings, name, sizeof(afcurl_encodings) - strlen(afcurl_encodings) - 1);
}

static void afcurl_compute_encodings(void) {
    afcurl_encodings[0] = '\0';
    const curl_version_info_data *info = afcurl_load() ? curl_version_info(CURLVERSION_NOW) : NULL;
    if (info == NULL) {
        return;
    }
    if (info->features & CURL_VERSION_LIBZ) {
        afcurl_append_encoding("gzip, deflate");
    }
    if (info->features & CURL_VERSION_BROTLI) {
        afcurl_append_encoding("br");
    }
    if (info->features & CURL_VERSION_ZSTD) {
        afcurl_append_encoding("zstd");
    }
}

const char *afcurl_supported_encodings(void) {
    pthread_once(&afcurl_encodings_once, afcurl_compute_encodings);
    return afcurl_encodings;
}

const char *afcurl_version(void) {
    const curl_version_info_data *info = afcurl_load() ? curl_version_info(CURLVERSION_NOW) : NULL;
    return (info != NULL && info->version != NULL) ? info->version : "";
}

int afcurl_supports_auth(unsigned long scheme) {
    const curl_version_info_data *info = afcurl_load() ? curl_version_info(CURLVERSION_NOW) : NULL;
    if (info == NULL) {
        return 0;
    }
    if (scheme == CURLAUTH_NTLM) {
        return (info->features & CURL_VERSION_NTLM) != 0;
    }
    if (scheme == CURLAUTH_NEGOTIATE) {
        return (info->features & CURL_VERSION_SPNEGO) != 0 && (info->features & CURL_VERSION_GSSAPI) != 0;
    }
    return 1;
}

int afcurl_supports_http3(void) {
    const curl_version_info_data *info = afcurl_load() ? curl_version_info(CURLVERSION_NOW) : NULL;
    return info != NULL && (info->features & CURL_VERSION_HTTP3) != 0;
}

/* MARK: - Interrupts */

static volatile sig_atomic_t afcurl_interrupt_flag = 0;
static volatile sig_atomic_t afcurl_interrupt_signo = 0;

static void afcurl_on_interrupt(int signo) {
    if (afcurl_interrupt_flag) {
        /* Second signal: the user insists; die the default way (status 128 + signo). */
        signal(signo, SIG_DFL);
        raise(signo);
        return;
    }
    afcurl_interrupt_signo = signo;
    afcurl_interrupt_flag = 1;
}

void afcurl_install_interrupt_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = afcurl_on_interrupt;
    sigemptyset(&action.sa_mask);
    /* No SA_RESTART: a blocking read of stdin must return EINTR so the body source can stop. */
    action.sa_flags = 0;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int afcurl_interrupted(void) {
    return afcurl_interrupt_flag != 0;
}

int afcurl_interrupt_signal(void) {
    return (int)afcurl_interrupt_signo;
}

void afcurl_clear_interrupt(void) {
    afcurl_interrupt_signo = 0;
    afcurl_interrupt_flag = 0;
}
