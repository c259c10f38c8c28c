/*
 * cdeflate_shim.c: the zlib deflate stream behind cdeflate_shim.h. libz is already loaded by
 * libcurl, so linking it costs nothing at start-up.
 */
#include "cdeflate_shim.h"

#include <limits.h>
#include <stdlib.h>
#include <zlib.h>

struct afz_deflater {
    z_stream stream;
};

afz_deflater *afz_deflater_new(void) {
    afz_deflater *deflater = calloc(1, sizeof(*deflater));
    if (deflater == NULL) {
        return NULL;
    }
    if (deflateInit(&deflater->stream, Z_DEFAULT_COMPRESSION) != Z_OK) {
        free(deflater);
        return NULL;
    }
    return deflater;
}

int afz_deflate(afz_deflater *deflater, const void *input, size_t input_length, void *output,
                size_t output_capacity, int finish, size_t *consumed, size_t *produced) {
    z_stream *stream = &deflater->stream;
    uInt in = input_length > UINT_MAX ? UINT_MAX : (uInt)input_length;
    uInt out = output_capacity > UINT_MAX ? UINT_MAX : (uInt)output_capacity;
    stream->next_in = (Bytef *)input;
    stream->avail_in = in;
    stream->next_out = (Bytef *)output;
    stream->avail_out = out;
    int flush = (finish && in == input_length) ? Z_FINISH : Z_NO_FLUSH;
    int result = deflate(stream, flush);
    *consumed = in - stream->avail_in;
    *produced = out - stream->avail_out;
    if (result == Z_STREAM_END) {
        return 1;
    }
    if (result == Z_OK || result == Z_BUF_ERROR) {
        return 0;
    }
    return -1;
}

int afz_deflater_reset(afz_deflater *deflater) {
    return deflateReset(&deflater->stream) == Z_OK ? 0 : -1;
}

void afz_deflater_free(afz_deflater *deflater) {
    if (deflater != NULL) {
        deflateEnd(&deflater->stream);
        free(deflater);
    }
}
