/*
 * ccurl_idna.c: host names in Unicode to their IDNA A-labels (bücher.example → xn--bcher-kva.example),
 * with the libidn2 that libcurl itself links.
 *
 * afcli converts before the transport, not inside libcurl: libcurl 7.88 reads the name in the
 * locale's character set (idn2_lookup_ul), which a program that never calls setlocale has as
 * ASCII, so it refuses every non-ASCII host; and `--offline` must print the A-label it would send.
 * The flags are libcurl's: UTS #46 non-transitional, NFC input, then transitional as a fallback.
 */
#include "ccurl_shim.h"

#include <dlfcn.h>
#include <idn2.h>
#include <pthread.h>

// libidn2 is opened with dlopen the first time a host needs it, not linked: libcurl has it loaded
// already, so this only finds it, while a DT_NEEDED entry of the executable's own would make the
// dynamic loader search one more object for every symbol of every run (measured ~0.3 M
// instructions a request) for the few requests with non-ASCII hosts. idn2.h gives the types.
static struct {
    __typeof__(&idn2_lookup_u8) lookup;
    __typeof__(&idn2_strerror) strerror;
    __typeof__(&idn2_free) free;
} idn2;

static pthread_once_t idn2_once = PTHREAD_ONCE_INIT;
static int idn2_loaded = 0;

static void idn2_load(void) {
    void *handle = dlopen("libidn2.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) return;
    idn2.lookup = (__typeof__(idn2.lookup))dlsym(handle, "idn2_lookup_u8");
    idn2.strerror = (__typeof__(idn2.strerror))dlsym(handle, "idn2_strerror");
    idn2.free = (__typeof__(idn2.free))dlsym(handle, "idn2_free");
    idn2_loaded = idn2.lookup && idn2.strerror && idn2.free;
}

int afcurl_idna_to_ascii(const char *utf8, char **ascii) {
    pthread_once(&idn2_once, idn2_load);
    *ascii = NULL;
    if (!idn2_loaded) return AFCURL_IDNA_UNAVAILABLE;
    char *output = NULL;
    int code = idn2.lookup((const uint8_t *)utf8, (uint8_t **)&output, IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
    if (code != IDN2_OK) {
        code = idn2.lookup((const uint8_t *)utf8, (uint8_t **)&output, IDN2_TRANSITIONAL);
    }
    *ascii = code == IDN2_OK ? output : NULL;
    return code;
}

const char *afcurl_idna_strerror(int code) {
    if (code == AFCURL_IDNA_UNAVAILABLE) return "libidn2 cannot be loaded";
    return idn2_loaded ? idn2.strerror(code) : "libidn2 cannot be loaded";
}

void afcurl_idna_free(char *ascii) {
    if (ascii && idn2_loaded) idn2.free(ascii);
}
