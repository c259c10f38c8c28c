/*
 * cdigest_shim.h: SHA-256 from OpenSSL's libcrypto (which libcurl has loaded already), for
 * digests of large bodies; NULL from afd_sha256_new when libcrypto cannot be used, and the caller
 * falls back to AFKit's own SHA256.
 */
#ifndef CDIGEST_SHIM_H
#define CDIGEST_SHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct afd_sha256 afd_sha256;

afd_sha256 *afd_sha256_new(void);
/* Returns 0, or -1 on failure. */
int afd_sha256_update(afd_sha256 *context, const void *bytes, size_t length);
/* Writes the 32-byte digest; returns 0, or -1 on failure. */
int afd_sha256_final(afd_sha256 *context, unsigned char digest[32]);
void afd_sha256_free(afd_sha256 *context);

#ifdef __cplusplus
}
#endif

#endif /* CDIGEST_SHIM_H */
