// libxml2 is loaded on first use with dlopen rather than linked: Debian's libxml2 links ICU, and
// loading ICU on every run costs more start-up time than a whole request to a local server.
// Runs that never parse XML never load it. libxml2's headers are included here only for types.
#include "cxml_shim.h"

#include <dlfcn.h>
#include <libxml/xmlreader.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The libxml2 functions afcli calls, resolved once.
#define CXML_FUNCTIONS(X)                                                                          \
    X(xmlParserInputBufferCreateIO)                                                               \
    X(xmlFreeParserInputBuffer)                                                                   \
    X(xmlNewTextReader)                                                                           \
    X(xmlFreeTextReader)                                                                          \
    X(xmlTextReaderSetParserProp)                                                                 \
    X(xmlTextReaderSetErrorHandler)                                                               \
    X(xmlTextReaderRead)                                                                          \
    X(xmlTextReaderNodeType)                                                                      \
    X(xmlTextReaderConstName)                                                                     \
    X(xmlTextReaderConstValue)                                                                    \
    X(xmlTextReaderIsEmptyElement)                                                                \
    X(xmlTextReaderDepth)                                                                         \
    X(xmlTextReaderMoveToNextAttribute)

static struct {
#define CXML_FIELD(name) __typeof__(&name) name;
    CXML_FUNCTIONS(CXML_FIELD)
#undef CXML_FIELD
} lib;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256];

static void cxml_load(void) {
    void *handle = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load libxml2: %s", why ? why : "unknown error");
        return;
    }
#define CXML_RESOLVE(name)                                                                         \
    lib.name = (__typeof__(lib.name))dlsym(handle, #name);                                         \
    if (!lib.name) {                                                                               \
        snprintf(load_error, sizeof load_error, "libxml2 lacks %s", #name);                        \
        return;                                                                                    \
    }
    CXML_FUNCTIONS(CXML_RESOLVE)
#undef CXML_RESOLVE
    loaded = 1;
}

int cxml_available(void) {
    pthread_once(&load_once, cxml_load);
    return loaded;
}

const char *cxml_load_error(void) {
    pthread_once(&load_once, cxml_load);
    return loaded ? NULL : load_error;
}

struct cxml_reader {
    xmlTextReaderPtr reader;
    xmlParserInputBufferPtr input;
    cxml_input_fn pull;
    void *context;
    char error[256];
};

static int cxml_pull(void *context, char *buffer, int length) {
    struct cxml_reader *owner = context;
    return owner->pull(owner->context, buffer, length);
}

static int cxml_close(void *context) {
    (void)context;
    return 0;
}

static void cxml_on_error(void *arg, const char *msg, xmlParserSeverities severity,
                          xmlTextReaderLocatorPtr locator) {
    struct cxml_reader *owner = arg;
    (void)locator;
    if (severity == XML_PARSER_SEVERITY_ERROR || owner->error[0] == '\0') {
        strncpy(owner->error, msg ? msg : "malformed XML", sizeof owner->error - 1);
        owner->error[sizeof owner->error - 1] = '\0';
        size_t n = strlen(owner->error);
        while (n > 0 && (owner->error[n - 1] == '\n' || owner->error[n - 1] == ' ')) {
            owner->error[--n] = '\0';
        }
    }
}

cxml_reader *cxml_reader_new(cxml_input_fn input, void *context) {
    if (!cxml_available()) return NULL;
    struct cxml_reader *owner = calloc(1, sizeof *owner);
    if (!owner) return NULL;
    owner->pull = input;
    owner->context = context;
    owner->input = lib.xmlParserInputBufferCreateIO(cxml_pull, cxml_close, owner, XML_CHAR_ENCODING_NONE);
    if (!owner->input) { free(owner); return NULL; }
    owner->reader = lib.xmlNewTextReader(owner->input, NULL);
    if (!owner->reader) { lib.xmlFreeParserInputBuffer(owner->input); free(owner); return NULL; }
    // No network, no external entities: a response body must never make afcli fetch anything.
    lib.xmlTextReaderSetParserProp(owner->reader, XML_PARSER_SUBST_ENTITIES, 0);
    lib.xmlTextReaderSetParserProp(owner->reader, XML_PARSER_LOADDTD, 0);
    lib.xmlTextReaderSetErrorHandler(owner->reader, cxml_on_error, owner);
    return owner;
}

void cxml_reader_free(cxml_reader *owner) {
    if (!owner) return;
    lib.xmlFreeTextReader(owner->reader);
    lib.xmlFreeParserInputBuffer(owner->input);
    free(owner);
}

int cxml_reader_next(cxml_reader *owner) { return lib.xmlTextReaderRead(owner->reader); }
int cxml_reader_node_kind(cxml_reader *owner) { return lib.xmlTextReaderNodeType(owner->reader); }
const char *cxml_reader_name(cxml_reader *owner) { return (const char *)lib.xmlTextReaderConstName(owner->reader); }
const char *cxml_reader_value(cxml_reader *owner) { return (const char *)lib.xmlTextReaderConstValue(owner->reader); }
int cxml_reader_is_empty_element(cxml_reader *owner) { return lib.xmlTextReaderIsEmptyElement(owner->reader); }
int cxml_reader_depth(cxml_reader *owner) { return lib.xmlTextReaderDepth(owner->reader); }
int cxml_reader_next_attribute(cxml_reader *owner) { return lib.xmlTextReaderMoveToNextAttribute(owner->reader); }
const char *cxml_reader_error(cxml_reader *owner) { return owner->error[0] ? owner->error : NULL; }
