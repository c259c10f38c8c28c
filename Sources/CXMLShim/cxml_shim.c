#include "cxml_shim.h"

#include <libxml/xmlreader.h>
#include <stdlib.h>
#include <string.h>

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
    struct cxml_reader *owner = calloc(1, sizeof *owner);
    if (!owner) return NULL;
    owner->pull = input;
    owner->context = context;
    owner->input = xmlParserInputBufferCreateIO(cxml_pull, cxml_close, owner, XML_CHAR_ENCODING_NONE);
    if (!owner->input) { free(owner); return NULL; }
    owner->reader = xmlNewTextReader(owner->input, NULL);
    if (!owner->reader) { xmlFreeParserInputBuffer(owner->input); free(owner); return NULL; }
    // No network, no external entities: a response body must never make afcli fetch anything.
    xmlTextReaderSetParserProp(owner->reader, XML_PARSER_SUBST_ENTITIES, 0);
    xmlTextReaderSetParserProp(owner->reader, XML_PARSER_LOADDTD, 0);
    xmlTextReaderSetErrorHandler(owner->reader, cxml_on_error, owner);
    return owner;
}

void cxml_reader_free(cxml_reader *owner) {
    if (!owner) return;
    xmlFreeTextReader(owner->reader);
    xmlFreeParserInputBuffer(owner->input);
    free(owner);
}

int cxml_reader_next(cxml_reader *owner) { return xmlTextReaderRead(owner->reader); }
int cxml_reader_node_kind(cxml_reader *owner) { return xmlTextReaderNodeType(owner->reader); }
const char *cxml_reader_name(cxml_reader *owner) { return (const char *)xmlTextReaderConstName(owner->reader); }
const char *cxml_reader_value(cxml_reader *owner) { return (const char *)xmlTextReaderConstValue(owner->reader); }
int cxml_reader_is_empty_element(cxml_reader *owner) { return xmlTextReaderIsEmptyElement(owner->reader); }
int cxml_reader_depth(cxml_reader *owner) { return xmlTextReaderDepth(owner->reader); }
int cxml_reader_next_attribute(cxml_reader *owner) { return xmlTextReaderMoveToNextAttribute(owner->reader); }
const char *cxml_reader_error(cxml_reader *owner) { return owner->error[0] ? owner->error : NULL; }
