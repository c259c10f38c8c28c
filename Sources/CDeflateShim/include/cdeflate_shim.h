/*
 * cdeflate_shim.h: zlib's deflate behind an opaque handle, for `--compress` request bodies.
 *
 * deflateInit is a macro and z_stream a struct Swift would have to manage field by field; this
 * keeps both in C. The output is the zlib format (RFC 1950), which is what HTTP's
 * `Content-Encoding: deflate` means and what HTTPie's zlib.compressobj() produces.
 */
#ifndef CDEFLATE_SHIM_H
#define CDEFLATE_SHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct afz_deflater afz_deflater;

/* A deflater at zlib's default level, or NULL when out of memory or zlib cannot be loaded. */
afz_deflater *afz_deflater_new(void);

/*
 * Compresses from `input` into `output`: sets *consumed and *produced. With `finish` nonzero the
 * stream is ended once all input is consumed. Returns 1 when the stream has ended, 0 when more
 * calls are needed (more input, or more output room), -1 on a zlib error.
 */
int afz_deflate(afz_deflater *deflater, const void *input, size_t input_length, void *output,
                size_t output_capacity, int finish, size_t *consumed, size_t *produced);

/* Starts a new stream on the same deflater (a body sent again after a redirect). */
int afz_deflater_reset(afz_deflater *deflater);

void afz_deflater_free(afz_deflater *deflater);

#ifdef __cplusplus
}
#endif

#endif /* CDEFLATE_SHIM_H */
