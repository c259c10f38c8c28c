/*
 * cdeflate_shim.c: the zlib deflate stream behind cdeflate_shim.h.
 *
 * zlib is opened with dlopen on first use instead of being linked: libcurl has it loaded
 * already, so the dlopen only finds it, while a DT_NEEDED entry of the executable's own would make
 * the dynamic loader search one more object for every symbol of every run (~0.3 M instructions a
 * request, measured), for an option few requests use. zlib.h is included for the types only.
 */
#include "cdeflate_shim.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <zlib.h>

static struct {
    __typeof__(&deflateInit_) init;
    __typeof__(&deflate) deflate;
    __typeof__(&deflateReset) reset;
    __typeof__(&deflateEnd) end;
} zlib;

static pthread_once_t zlib_once = PTHREAD_ONCE_INIT;
static int zlib_loaded = 0;

static void zlib_load(void) {
    void *handle = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return;
    zlib.init = (__typeof__(zlib.init))dlsym(handle, "deflateInit_");
    zlib.deflate = (__typeof__(zlib.deflate))dlsym(handle, "deflate");
    zlib.reset = (__typeof__(zlib.reset))dlsym(handle, "deflateReset");
    zlib.end = (__typeof__(zlib.end))dlsym(handle, "deflateEnd");
    zlib_loaded = zlib.init && zlib.deflate && zlib.reset && zlib.end;
}

struct afz_deflater {
    z_stream stream;
};

afz_deflater *afz_deflater_new(void) {
    pthread_once(&zlib_once, zlib_load);
    if (!zlib_loaded) {
        return NULL;
    }
    afz_deflater *deflater = calloc(1, sizeof(*deflater));
    if (deflater == NULL) {
        return NULL;
    }
    if (zlib.init(&deflater->stream, Z_DEFAULT_COMPRESSION, ZLIB_VERSION, (int)sizeof(z_stream)) != Z_OK) {
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
    int result = zlib.deflate(stream, flush);
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
    return zlib.reset(&deflater->stream) == Z_OK ? 0 : -1;
}

void afz_deflater_free(afz_deflater *deflater) {
    if (deflater != NULL) {
        zlib.end(&deflater->stream);
        free(deflater);
    }
}
