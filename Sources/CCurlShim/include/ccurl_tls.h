/*
 * ccurl_tls.h: the certificate side of the shim, over the OpenSSL that libcurl uses.
 *
 * libcurl's CURLOPT_PINNEDPUBLICKEY compares the leaf's key only, while AFNetworking accepts a
 * pinned key (or certificate) anywhere in the server's chain. The trust hook below replaces
 * OpenSSL's chain verification for one handle (CURLOPT_SSL_CTX_FUNCTION +
 * SSL_CTX_set_cert_verify_callback): it runs the normal verification, records the chain, and
 * fails the handshake when no certificate in the chain carries a pinned key or is a pinned
 * certificate, so a pin mismatch stops the exchange before any request byte is sent.
 *
 * OpenSSL types stay inside ccurl_tls.c; Swift sees opaque pointers and byte arrays only.
 */
#ifndef CCURL_TLS_H
#define CCURL_TLS_H

#include <curl/curl.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The size of a SHA-256 digest. */
#define AFCURL_SHA256_LENGTH 32
/* The most certificates of one chain the hook records. */
#define AFCURL_MAX_CHAIN 16
/* The longest subject name recorded (RFC 2253 text, truncated). */
#define AFCURL_SUBJECT_LENGTH 256

/* What the hook's pins are digests of. */
typedef enum {
    /* No pins: the hook only records the chain (afcli pin). */
    AFCURL_PIN_NONE = 0,
    /* SHA-256 of each certificate's DER SubjectPublicKeyInfo (AFSSLPinningModePublicKey). */
    AFCURL_PIN_PUBLIC_KEY = 1,
    /* SHA-256 of each whole DER certificate (AFSSLPinningModeCertificate). */
    AFCURL_PIN_CERTIFICATE = 2,
} afcurl_pin_mode;

/* One certificate as the shim describes it. */
typedef struct {
    /* SHA-256 of the DER SubjectPublicKeyInfo: the `sha256//` pin of its key. */
    unsigned char key_sha256[AFCURL_SHA256_LENGTH];
    /* SHA-256 of the whole DER certificate. */
    unsigned char certificate_sha256[AFCURL_SHA256_LENGTH];
    /* The subject in RFC 2253 form (`CN=localhost,O=Example`), NUL-terminated. */
    char subject[AFCURL_SUBJECT_LENGTH];
    /* The issuer in RFC 2253 form, NUL-terminated. */
    char issuer[AFCURL_SUBJECT_LENGTH];
} afcurl_certificate_info;

/* An opaque per-handle verification hook. */
typedef struct afcurl_trust_hook afcurl_trust_hook;

/* Nonzero when libcurl's TLS backend is the OpenSSL major version this shim was compiled for,
 * so the SSL_CTX that CURLOPT_SSL_CTX_FUNCTION hands over may be used as one. */
int afcurl_trust_hook_supported(void);

/* A hook with no pins; `verify_peer` mirrors CURLOPT_SSL_VERIFYPEER. NULL when out of memory. */
afcurl_trust_hook *afcurl_trust_hook_create(afcurl_pin_mode mode, int verify_peer);

/* Adds one pinned SHA-256 digest (of a key or a certificate, per the mode); 0 when full. */
int afcurl_trust_hook_add_pin(afcurl_trust_hook *hook, const unsigned char *digest);

/* Sets CURLOPT_SSL_CTX_FUNCTION/DATA so the hook verifies every handshake of the handle; the hook
 * must outlive every connection the handle keeps. */
CURLcode afcurl_trust_hook_install(CURL *handle, afcurl_trust_hook *hook);

/* Forgets what the last handshake recorded. */
void afcurl_trust_hook_reset(afcurl_trust_hook *hook);

/* Nonzero once a handshake ran the hook since the last reset. */
int afcurl_trust_hook_ran(const afcurl_trust_hook *hook);

/* Nonzero when pins were set and no certificate of the last chain matched one. */
int afcurl_trust_hook_mismatched(const afcurl_trust_hook *hook);

/* OpenSSL's verification result for the last chain (X509_V_OK is 0). */
long afcurl_trust_hook_verify_error(const afcurl_trust_hook *hook);

/* Nonzero when the recorded chain is the verified one (ending at a trusted certificate) rather
 * than the certificates as the server sent them. */
int afcurl_trust_hook_chain_verified(const afcurl_trust_hook *hook);

/* The number of certificates recorded for the last chain, leaf first. */
size_t afcurl_trust_hook_chain_count(const afcurl_trust_hook *hook);

/* The recorded certificate at `index` (leaf is 0), or NULL past the end. */
const afcurl_certificate_info *afcurl_trust_hook_chain_certificate(const afcurl_trust_hook *hook, size_t index);

void afcurl_trust_hook_free(afcurl_trust_hook *hook);

/* OpenSSL's text for an X509_V_ERR_* code, e.g. "certificate has expired". */
const char *afcurl_x509_error_string(long code);

/* The coarse class of an X509_V_ERR_* code, so Swift need not see OpenSSL's constants. */
typedef enum {
    AFCURL_CERT_OK = 0,
    /* No path to a trusted certificate: unknown issuer, self-signed, untrusted. */
    AFCURL_CERT_UNTRUSTED = 1,
    AFCURL_CERT_EXPIRED = 2,
    AFCURL_CERT_NOT_YET_VALID = 3,
    AFCURL_CERT_HOST_MISMATCH = 4,
    AFCURL_CERT_REVOKED = 5,
    /* The hook refused the chain (a pin mismatch). */
    AFCURL_CERT_REJECTED = 6,
    AFCURL_CERT_OTHER = 7,
} afcurl_certificate_problem;

afcurl_certificate_problem afcurl_x509_error_problem(long code);

/*
 * Reads certificates from file bytes: one or more PEM blocks, or a single DER certificate (the
 * .cer files AFNetworking pins). Fills up to `max` entries of `infos` and, when `pem` is not NULL,
 * a malloc'd NUL-terminated PEM text of all of them (free with afcurl_free). Returns the number of
 * certificates read, 0 when the bytes hold none, -1 when out of memory.
 */
int afcurl_read_certificates(
    const unsigned char *bytes, size_t length, afcurl_certificate_info *infos, int max, char **pem);

/* Frees memory the shim allocated. */
void afcurl_free(void *pointer);

/* CURLOPT_CAINFO_BLOB with a copy of `pem` (libcurl copies the blob). */
CURLcode afcurl_setopt_ca_blob(CURL *handle, const char *pem, size_t length);

#ifdef __cplusplus
}
#endif

#endif /* CCURL_TLS_H */
