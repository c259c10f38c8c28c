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

#include <idn2.h>

int afcurl_idna_to_ascii(const char *utf8, char **ascii) {
    char *output = NULL;
    int code = idn2_lookup_u8((const uint8_t *)utf8, (uint8_t **)&output, IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
    if (code != IDN2_OK) {
        code = idn2_lookup_u8((const uint8_t *)utf8, (uint8_t **)&output, IDN2_TRANSITIONAL);
    }
    *ascii = code == IDN2_OK ? output : NULL;
    return code;
}

const char *afcurl_idna_strerror(int code) {
    return idn2_strerror(code);
}

void afcurl_idna_free(char *ascii) {
    idn2_free(ascii);
}
