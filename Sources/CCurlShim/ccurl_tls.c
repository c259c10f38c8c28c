/*
 * ccurl_tls.c: chain-wide pinning and certificate reading over OpenSSL (see ccurl_tls.h).
 *
 * The verification callback mirrors AFSecurityPolicy's evaluateServerTrust: verify the chain
 * (unless invalid certificates are allowed), then accept only when a certificate of the chain
 * (as sent, or as verified up to its anchor) carries a pinned key or is a pinned certificate.
 */
#include "ccurl_tls.h"
#include "ccurl_dyn.h"
#include "ccurl_shim.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most pins one hook holds; more is a configuration nobody needs. */
#define AFCURL_MAX_PINS 64

struct afcurl_trust_hook {
    afcurl_pin_mode mode;
    int verify_peer;
    size_t pin_count;
    unsigned char pins[AFCURL_MAX_PINS][AFCURL_SHA256_LENGTH];
    /* What the last handshake found. */
    int ran;
    int mismatched;
    long verify_error;
    int chain_verified;
    size_t chain_count;
    afcurl_certificate_info chain[AFCURL_MAX_CHAIN];
};

/* MARK: - Digests and names */

/* SHA-256 of a certificate's DER SubjectPublicKeyInfo and of the whole DER certificate. */
static int afcurl_digest_certificate(X509 *certificate, afcurl_certificate_info *info) {
    unsigned char *der = NULL;
    int length = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(certificate), &der);
    if (length <= 0) {
        return 0;
    }
    int ok = EVP_Digest(der, (size_t)length, info->key_sha256, NULL, EVP_sha256(), NULL);
    OPENSSL_free(der);
    der = NULL;
    length = i2d_X509(certificate, &der);
    if (!ok || length <= 0) {
        return 0;
    }
    ok = EVP_Digest(der, (size_t)length, info->certificate_sha256, NULL, EVP_sha256(), NULL);
    OPENSSL_free(der);
    return ok;
}

/* An X509 name as RFC 2253 text (`CN=localhost,O=Example`), truncated to the buffer. */
static void afcurl_name_text(const X509_NAME *name, char *buffer, size_t size) {
    buffer[0] = '\0';
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) {
        return;
    }
    if (X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB) >= 0) {
        int read = BIO_read(bio, buffer, (int)size - 1);
        buffer[read > 0 ? read : 0] = '\0';
    }
    BIO_free(bio);
}

/* Fills `info` for one certificate; 0 when it cannot be encoded. */
static int afcurl_describe(X509 *certificate, afcurl_certificate_info *info) {
    memset(info, 0, sizeof(*info));
    if (!afcurl_digest_certificate(certificate, info)) {
        return 0;
    }
    afcurl_name_text(X509_get_subject_name(certificate), info->subject, sizeof(info->subject));
    afcurl_name_text(X509_get_issuer_name(certificate), info->issuer, sizeof(info->issuer));
    return 1;
}

/* MARK: - The hook */

int afcurl_trust_hook_supported(void) {
    const curl_version_info_data *info = afcurl_load() ? curl_version_info(CURLVERSION_NOW) : NULL;
    if (info == NULL || info->ssl_version == NULL) {
        return 0;
    }
    /* libcurl may be built with several backends; the active one is listed first or alone. */
    char expected[32];
    snprintf(expected, sizeof(expected), "OpenSSL/%d.", OPENSSL_VERSION_MAJOR);
    return strncmp(info->ssl_version, expected, strlen(expected)) == 0;
}

afcurl_trust_hook *afcurl_trust_hook_create(afcurl_pin_mode mode, int verify_peer) {
    afcurl_trust_hook *hook = calloc(1, sizeof(afcurl_trust_hook));
    if (hook != NULL) {
        hook->mode = mode;
        hook->verify_peer = verify_peer;
    }
    return hook;
}

int afcurl_trust_hook_add_pin(afcurl_trust_hook *hook, const unsigned char *digest) {
    if (hook->pin_count >= AFCURL_MAX_PINS) {
        return 0;
    }
    memcpy(hook->pins[hook->pin_count], digest, AFCURL_SHA256_LENGTH);
    hook->pin_count += 1;
    return 1;
}

/* Whether a digest is one of the hook's pins. */
static int afcurl_is_pinned(const afcurl_trust_hook *hook, const unsigned char *digest) {
    for (size_t index = 0; index < hook->pin_count; index++) {
        if (memcmp(hook->pins[index], digest, AFCURL_SHA256_LENGTH) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Whether any certificate of `chain` matches a pin in the hook's mode. */
static int afcurl_chain_matches(const afcurl_trust_hook *hook, STACK_OF(X509) *chain) {
    if (chain == NULL) {
        return 0;
    }
    for (int index = 0; index < sk_X509_num(chain); index++) {
        afcurl_certificate_info info;
        if (!afcurl_describe(sk_X509_value(chain, index), &info)) {
            continue;
        }
        const unsigned char *digest =
            hook->mode == AFCURL_PIN_CERTIFICATE ? info.certificate_sha256 : info.key_sha256;
        if (afcurl_is_pinned(hook, digest)) {
            return 1;
        }
    }
    return 0;
}

/* Records a chain for afcurl_trust_hook_chain_certificate. */
static void afcurl_record_chain(afcurl_trust_hook *hook, STACK_OF(X509) *chain, int verified) {
    hook->chain_count = 0;
    hook->chain_verified = verified;
    if (chain == NULL) {
        return;
    }
    for (int index = 0; index < sk_X509_num(chain) && hook->chain_count < AFCURL_MAX_CHAIN; index++) {
        if (afcurl_describe(sk_X509_value(chain, index), &hook->chain[hook->chain_count])) {
            hook->chain_count += 1;
        }
    }
}

/*
 * Replaces X509_verify_cert for the handshake. Returning 0 fails the handshake when the SSL_CTX
 * verifies peers, which the context callback guarantees whenever there are pins.
 */
static int afcurl_verify_chain(X509_STORE_CTX *store, void *argument) {
    afcurl_trust_hook *hook = argument;
    hook->ran = 1;
    hook->mismatched = 0;
    int verified = X509_verify_cert(store) > 0;
    hook->verify_error = verified ? X509_V_OK : X509_STORE_CTX_get_error(store);
    STACK_OF(X509) *sent = X509_STORE_CTX_get0_untrusted(store);
    STACK_OF(X509) *built = verified ? X509_STORE_CTX_get0_chain(store) : NULL;
    afcurl_record_chain(hook, verified ? built : sent, verified);
    if (!verified && hook->verify_peer) {
        return 0;
    }
    if (hook->mode == AFCURL_PIN_NONE || hook->pin_count == 0) {
        /* With verification off the error stays recorded but does not fail the handshake. */
        return 1;
    }
    if (afcurl_chain_matches(hook, sent) || afcurl_chain_matches(hook, built)) {
        return 1;
    }
    hook->mismatched = 1;
    X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION);
    return 0;
}

/* CURLOPT_SSL_CTX_FUNCTION: runs after libcurl configured the SSL_CTX, before the handshake. */
static CURLcode afcurl_configure_context(CURL *handle, void *context, void *argument) {
    (void)handle;
    afcurl_trust_hook *hook = argument;
    SSL_CTX *ssl_context = context;
    SSL_CTX_set_cert_verify_callback(ssl_context, afcurl_verify_chain, hook);
    if (hook->mode != AFCURL_PIN_NONE && hook->pin_count > 0) {
        /* libcurl sets SSL_VERIFY_NONE when peer verification is off, which would make OpenSSL
         * ignore the callback's verdict; pins must be able to fail the handshake regardless. */
        SSL_CTX_set_verify(ssl_context, SSL_VERIFY_PEER, NULL);
    }
    return CURLE_OK;
}

CURLcode afcurl_trust_hook_install(CURL *handle, afcurl_trust_hook *hook) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, afcurl_configure_context);
    if (code != CURLE_OK) {
        return code;
    }
    code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, (void *)hook);
    if (code != CURLE_OK) {
        return code;
    }
    /* A resumed TLS session skips certificate verification, and with it the pin check. */
    return curl_easy_setopt(handle, CURLOPT_SSL_SESSIONID_CACHE, 0L);
}

void afcurl_trust_hook_reset(afcurl_trust_hook *hook) {
    hook->ran = 0;
    hook->mismatched = 0;
    hook->verify_error = X509_V_OK;
    hook->chain_verified = 0;
    hook->chain_count = 0;
}

int afcurl_trust_hook_ran(const afcurl_trust_hook *hook) {
    return hook->ran;
}

int afcurl_trust_hook_mismatched(const afcurl_trust_hook *hook) {
    return hook->mismatched;
}

long afcurl_trust_hook_verify_error(const afcurl_trust_hook *hook) {
    return hook->verify_error;
}

int afcurl_trust_hook_chain_verified(const afcurl_trust_hook *hook) {
    return hook->chain_verified;
}

size_t afcurl_trust_hook_chain_count(const afcurl_trust_hook *hook) {
    return hook->chain_count;
}

const afcurl_certificate_info *afcurl_trust_hook_chain_certificate(const afcurl_trust_hook *hook, size_t index) {
    return index < hook->chain_count ? &hook->chain[index] : NULL;
}

void afcurl_trust_hook_free(afcurl_trust_hook *hook) {
    free(hook);
}

/* MARK: - Verification results */

const char *afcurl_x509_error_string(long code) {
    return X509_verify_cert_error_string(code);
}

afcurl_certificate_problem afcurl_x509_error_problem(long code) {
    switch (code) {
    case X509_V_OK:
        return AFCURL_CERT_OK;
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_CERT_UNTRUSTED:
    case X509_V_ERR_INVALID_CA:
    case X509_V_ERR_CERT_SIGNATURE_FAILURE:
        return AFCURL_CERT_UNTRUSTED;
    case X509_V_ERR_CERT_HAS_EXPIRED:
        return AFCURL_CERT_EXPIRED;
    case X509_V_ERR_CERT_NOT_YET_VALID:
        return AFCURL_CERT_NOT_YET_VALID;
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
        return AFCURL_CERT_HOST_MISMATCH;
    case X509_V_ERR_CERT_REVOKED:
        return AFCURL_CERT_REVOKED;
    case X509_V_ERR_APPLICATION_VERIFICATION:
        return AFCURL_CERT_REJECTED;
    default:
        return AFCURL_CERT_OTHER;
    }
}

/* MARK: - Reading certificate files */

/* Appends one certificate's PEM text to a memory BIO and its description to `infos`. */
static int afcurl_take_certificate(X509 *certificate, BIO *pem, afcurl_certificate_info *infos, int max, int count) {
    if (count < max && !afcurl_describe(certificate, &infos[count])) {
        return 0;
    }
    if (pem != NULL && !PEM_write_bio_X509(pem, certificate)) {
        return 0;
    }
    return 1;
}

int afcurl_read_certificates(
    const unsigned char *bytes, size_t length, afcurl_certificate_info *infos, int max, char **pem) {
    if (pem != NULL) {
        *pem = NULL;
    }
    BIO *output = pem != NULL ? BIO_new(BIO_s_mem()) : NULL;
    if (pem != NULL && output == NULL) {
        return -1;
    }
    int count = 0;
    BIO *input = BIO_new_mem_buf(bytes, (int)length);
    if (input == NULL) {
        BIO_free(output);
        return -1;
    }
    X509 *certificate;
    while ((certificate = PEM_read_bio_X509(input, NULL, NULL, NULL)) != NULL) {
        int taken = afcurl_take_certificate(certificate, output, infos, max, count);
        X509_free(certificate);
        if (!taken) {
            count = -1;
            break;
        }
        count += 1;
    }
    BIO_free(input);
    if (count == 0) {
        /* Not PEM: a single DER certificate, as AFNetworking's .cer files are. */
        const unsigned char *cursor = bytes;
        certificate = d2i_X509(NULL, &cursor, (long)length);
        if (certificate != NULL && cursor == bytes + length) {
            count = afcurl_take_certificate(certificate, output, infos, max, 0) ? 1 : -1;
        }
        X509_free(certificate);
    }
    /* The reads that stop at the end (or find no PEM) leave errors that libcurl would report. */
    ERR_clear_error();
    if (count > 0 && output != NULL) {
        char *data = NULL;
        long size = BIO_get_mem_data(output, &data);
        *pem = malloc((size_t)size + 1);
        if (*pem == NULL) {
            count = -1;
        } else {
            memcpy(*pem, data, (size_t)size);
            (*pem)[size] = '\0';
        }
    }
    BIO_free(output);
    return count;
}

void afcurl_free(void *pointer) {
    free(pointer);
}

CURLcode afcurl_setopt_ca_blob(CURL *handle, const char *pem, size_t length) {
    struct curl_blob blob;
    blob.data = (void *)pem;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(handle, CURLOPT_CAINFO_BLOB, &blob);
}
