/*
 * cdigest_shim.c: SHA-256 through libcrypto's EVP interface, looked up with dlopen on first use.
 *
 * libcrypto is already in the process (libcurl and the TLS shim use it), so RTLD_NOLOAD finds it
 * without loading anything; its assembly SHA-256 is several times faster than portable code,
 * which matters for bodies of gigabytes.
 */
#include "cdigest_shim.h"

#include <dlfcn.h>
#include <pthread.h>

typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct evp_md_st EVP_MD;
typedef struct engine_st ENGINE;

static struct {
    EVP_MD_CTX *(*ctx_new)(void);
    void (*ctx_free)(EVP_MD_CTX *);
    const EVP_MD *(*sha256)(void);
    int (*init)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
    int (*update)(EVP_MD_CTX *, const void *, size_t);
    int (*final)(EVP_MD_CTX *, unsigned char *, unsigned int *);
} crypto;

static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;
static int crypto_loaded = 0;

static void crypto_load(void) {
    void *handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_NOLOAD);
    if (!handle) handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return;
    crypto.ctx_new = (__typeof__(crypto.ctx_new))dlsym(handle, "EVP_MD_CTX_new");
    crypto.ctx_free = (__typeof__(crypto.ctx_free))dlsym(handle, "EVP_MD_CTX_free");
    crypto.sha256 = (__typeof__(crypto.sha256))dlsym(handle, "EVP_sha256");
    crypto.init = (__typeof__(crypto.init))dlsym(handle, "EVP_DigestInit_ex");
    crypto.update = (__typeof__(crypto.update))dlsym(handle, "EVP_DigestUpdate");
    crypto.final = (__typeof__(crypto.final))dlsym(handle, "EVP_DigestFinal_ex");
    crypto_loaded = crypto.ctx_new && crypto.ctx_free && crypto.sha256 && crypto.init && crypto.update && crypto.final;
}

afd_sha256 *afd_sha256_new(void) {
    pthread_once(&crypto_once, crypto_load);
    if (!crypto_loaded) return NULL;
    EVP_MD_CTX *context = crypto.ctx_new();
    if (!context) return NULL;
    if (crypto.init(context, crypto.sha256(), NULL) != 1) {
        crypto.ctx_free(context);
        return NULL;
    }
    return (afd_sha256 *)context;
}

int afd_sha256_update(afd_sha256 *context, const void *bytes, size_t length) {
    return crypto.update((EVP_MD_CTX *)context, bytes, length) == 1 ? 0 : -1;
}

int afd_sha256_final(afd_sha256 *context, unsigned char digest[32]) {
    unsigned int length = 0;
    return crypto.final((EVP_MD_CTX *)context, digest, &length) == 1 && length == 32 ? 0 : -1;
}

void afd_sha256_free(afd_sha256 *context) {
    if (context) crypto.ctx_free((EVP_MD_CTX *)context);
}
