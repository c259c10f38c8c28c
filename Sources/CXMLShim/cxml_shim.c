// libxml2 is loaded on first use with dlopen rather than linked: Debian's libxml2 links ICU, and
// loading ICU on every run costs more start-up time than a whole request to a local server.
// Runs that never parse XML never load it. libxml2's headers are included here only for types.
#include "cxml_shim.h"
#include "cxml_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The table of libxml2 functions (cxml_lib.h), resolved once.
struct cxml_lib_functions cxml_lib;

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
    cxml_lib.name = (__typeof__(cxml_lib.name))dlsym(handle, #name);                               \
    if (!cxml_lib.name) {                                                                          \
        snprintf(load_error, sizeof load_error, "libxml2 lacks %s", #name);                        \
        return;                                                                                    \
    }
    CXML_FUNCTIONS(CXML_RESOLVE)
#undef CXML_RESOLVE
    // xmlFree is a variable holding the deallocator, not a function.
    cxml_lib.xmlFree_variable = (xmlFreeFunc *)dlsym(handle, "xmlFree");
    if (!cxml_lib.xmlFree_variable || !*cxml_lib.xmlFree_variable) {
        snprintf(load_error, sizeof load_error, "libxml2 lacks xmlFree");
        return;
    }
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

// MARK: - Push parser

// The push parser takes the body in chunks as libcurl delivers them (the reader would have to
// pull, and so run on a thread of its own), and its SAX callbacks cost far less than the
// reader's partial tree. Callbacks only append records to `events`; Swift walks them after each
// chunk, so no Swift code runs inside libxml2 and names and text are copied exactly once.
struct cxml_push {
    xmlParserCtxtPtr ctxt;
    xmlSAXHandler sax;
    unsigned char *events;
    size_t length;
    size_t capacity;
    // The capacity the last batch needed: the next buffer starts there instead of growing to it
    // again by reallocation.
    size_t last_capacity;
    int out_of_memory;
    unsigned long last_offset;
    int last_kind;
    char head[4];
    int head_length;
    // Open elements (outside entity replacement text) and the most allowed.
    int depth;
    int max_depth;
    // Set when the shim itself stopped the parser (nesting too deep).
    int halted;
    // Where the internal DTD subset starts (one past its `[`), or 0 when there is none, and where
    // the DOCTYPE ends (after its `>`).
    unsigned long subset_start;
    unsigned long subset_end;
    char error[256];
};

static void cxml_grow(struct cxml_push *p, size_t more) {
    if (p->out_of_memory || p->length + more <= p->capacity) return;
    size_t capacity = p->capacity ? p->capacity : (p->last_capacity ? p->last_capacity : 64 * 1024);
    while (capacity < p->length + more) capacity *= 2;
    unsigned char *grown = realloc(p->events, capacity);
    if (!grown) { p->out_of_memory = 1; return; }
    p->events = grown;
    p->capacity = capacity;
}

static void cxml_put_u32(struct cxml_push *p, uint32_t value) {
    cxml_grow(p, 4);
    if (p->out_of_memory) return;
    memcpy(p->events + p->length, &value, 4);
    p->length += 4;
}

// A string as a 32-bit length and its bytes; NULL is written as the length 0xFFFFFFFF.
static void cxml_put_string(struct cxml_push *p, const xmlChar *text, size_t length) {
    if (!text) { cxml_put_u32(p, UINT32_MAX); return; }
    cxml_put_u32(p, (uint32_t)length);
    cxml_grow(p, length);
    if (p->out_of_memory) return;
    memcpy(p->events + p->length, text, length);
    p->length += length;
}

static void cxml_put_cstring(struct cxml_push *p, const xmlChar *text) {
    cxml_put_string(p, text, text ? strlen((const char *)text) : 0);
}

// A qualified name, `prefix:local` or `local`.
static void cxml_put_qname(struct cxml_push *p, const xmlChar *prefix, const xmlChar *local) {
    if (!prefix) { cxml_put_cstring(p, local); return; }
    size_t a = strlen((const char *)prefix), b = strlen((const char *)local);
    cxml_put_u32(p, (uint32_t)(a + 1 + b));
    cxml_grow(p, a + 1 + b);
    if (p->out_of_memory) return;
    memcpy(p->events + p->length, prefix, a);
    p->events[p->length + a] = ':';
    memcpy(p->events + p->length + a + 1, local, b);
    p->length += a + 1 + b;
}

// libxml2's own SAX2 handlers (which keep the DTD and entity declarations) expect the parser
// context as their user data, so the context is the user data and points back to its owner.
static struct cxml_push *cxml_owner(void *ctx) { return ((xmlParserCtxtPtr)ctx)->_private; }

// Starts a record; returns 0 for events raised while libxml2 parses an entity's replacement text
// (ctxt->depth > 0), which would repeat what the entity reference stands for.
static int cxml_begin(struct cxml_push *p, int kind, uint32_t strings) {
    // Comments and processing instructions inside the internal subset are part of the DOCTYPE,
    // which is copied whole.
    if (!p->ctxt || p->ctxt->depth > 0 || (p->ctxt->inSubset && kind != CXML_NODE_DOCUMENT_TYPE)) return 0;
    cxml_grow(p, 8);
    if (p->out_of_memory) return 0;
    p->events[p->length] = (unsigned char)kind;
    memset(p->events + p->length + 1, 0, 3);
    p->length += 4;
    cxml_put_u32(p, strings);
    xmlParserInputPtr in = p->ctxt->input;
    if (in && in->cur && in->base) p->last_offset = in->consumed + (unsigned long)(in->cur - in->base);
    p->last_kind = kind;
    return 1;
}

// The input offset of the parser's cursor.
static unsigned long cxml_cursor(struct cxml_push *p) {
    xmlParserInputPtr in = p->ctxt ? p->ctxt->input : NULL;
    if (!in || !in->cur || !in->base) return p->last_offset;
    return in->consumed + (unsigned long)(in->cur - in->base);
}

// Text and CDATA callbacks may come before the cursor moves past the text: when the text lies in
// the input buffer, the event ends where the text ends, so that a fallback after it does not
// print the text a second time.
static void cxml_end_at_text(struct cxml_push *p, const xmlChar *text, int length) {
    xmlParserInputPtr in = p->ctxt->input;
    if (!in || !in->base || !in->end || !text) return;
    if (text >= in->base && text + length <= in->end && text + length > in->cur) {
        p->last_offset = in->consumed + (unsigned long)(text + length - in->base);
    }
}

static void cxml_on_start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri,
                          int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                          const xmlChar **attributes) {
    struct cxml_push *p = cxml_owner(ctx);
    (void)uri;
    int given = nb_attributes - nb_defaulted;
    if (p->ctxt && p->ctxt->depth == 0 && !p->ctxt->inSubset) {
        // A nesting limit of its own: libxml2's push parser has none for SAX callers.
        if (p->depth >= p->max_depth) {
            snprintf(p->error, sizeof p->error, "nesting deeper than %d levels", p->max_depth);
            p->halted = 1;
            cxml_lib.xmlStopParser(p->ctxt);
            return;
        }
        p->depth++;
    }
    if (!cxml_begin(p, CXML_NODE_ELEMENT, (uint32_t)(1 + 2 * (nb_namespaces + given)))) return;
    cxml_put_qname(p, prefix, local);
    for (int i = 0; i < nb_namespaces; i++) {
        const xmlChar *name = namespaces[2 * i], *href = namespaces[2 * i + 1];
        cxml_put_qname(p, name ? (const xmlChar *)"xmlns" : NULL, name ? name : (const xmlChar *)"xmlns");
        cxml_put_cstring(p, href ? href : (const xmlChar *)"");
    }
    for (int i = 0; i < given; i++) {
        const xmlChar **attribute = attributes + 5 * i;
        cxml_put_qname(p, attribute[1], attribute[0]);
        cxml_put_string(p, attribute[3], (size_t)(attribute[4] - attribute[3]));
    }
}

static void cxml_on_end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    struct cxml_push *p = cxml_owner(ctx);
    (void)uri;
    if (p->ctxt && p->ctxt->depth == 0 && !p->ctxt->inSubset && p->depth > 0) p->depth--;
    if (cxml_begin(p, CXML_NODE_END_ELEMENT, 1)) cxml_put_qname(p, prefix, local);
}

static void cxml_on_text(void *ctx, const xmlChar *text, int length) {
    struct cxml_push *p = cxml_owner(ctx);
    if (!cxml_begin(p, CXML_NODE_TEXT, 1)) return;
    cxml_put_string(p, text, (size_t)length);
    cxml_end_at_text(p, text, length);
}

static void cxml_on_cdata(void *ctx, const xmlChar *text, int length) {
    struct cxml_push *p = cxml_owner(ctx);
    if (!cxml_begin(p, CXML_NODE_CDATA, 1)) return;
    cxml_put_string(p, text, (size_t)length);
    cxml_end_at_text(p, text, length);
}

static void cxml_on_comment(void *ctx, const xmlChar *text) {
    struct cxml_push *p = cxml_owner(ctx);
    if (cxml_begin(p, CXML_NODE_COMMENT, 1)) cxml_put_cstring(p, text);
}

static void cxml_on_instruction(void *ctx, const xmlChar *target, const xmlChar *data) {
    struct cxml_push *p = cxml_owner(ctx);
    if (!cxml_begin(p, CXML_NODE_PROCESSING_INSTRUCTION, 2)) return;
    cxml_put_cstring(p, target);
    cxml_put_cstring(p, data);
}

static void cxml_on_reference(void *ctx, const xmlChar *name) {
    struct cxml_push *p = cxml_owner(ctx);
    if (cxml_begin(p, CXML_NODE_ENTITY_REFERENCE, 1)) cxml_put_cstring(p, name);
}

static void cxml_on_doctype(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    struct cxml_push *p = cxml_owner(ctx);
    // libxml2's own handler records the DTD so that entities declared in it stay known.
    cxml_lib.xmlSAX2InternalSubset(p->ctxt, name, external_id, system_id);
    // The cursor is at the internal subset's `[`, if there is one; the DOCTYPE is recorded once
    // the subset has been read (cxml_on_subset_end), with the subset copied as received.
    xmlParserInputPtr in = p->ctxt->input;
    p->subset_start = (in && in->cur && in->cur < in->end && *in->cur == '[') ? cxml_cursor(p) + 1 : 0;
}

// Called at the end of the DOCTYPE (after its internal subset, if any): records the DOCTYPE with
// name, identifiers and the internal subset's text from `[` to `]` (NULL when there is none, an
// empty string when it is no longer in the input buffer).
static void cxml_on_subset_end(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    struct cxml_push *p = cxml_owner(ctx);
    if (!cxml_begin(p, CXML_NODE_DOCUMENT_TYPE, 4)) return;
    cxml_put_cstring(p, name);
    cxml_put_cstring(p, external_id);
    cxml_put_cstring(p, system_id);
    if (p->subset_start == 0) { cxml_put_string(p, NULL, 0); return; }
    xmlParserInputPtr in = p->ctxt->input;
    unsigned long start = p->subset_start - 1, end = cxml_cursor(p);
    p->subset_end = end;
    if (!in || !in->base || start < in->consumed || end <= start) { cxml_put_string(p, (const xmlChar *)"", 0); return; }
    const xmlChar *first = in->base + (start - in->consumed), *last = in->base + (end - in->consumed);
    // The cursor is after the closing `>`: keep `[ … ]` and drop the `>` and blanks before it.
    if (last > first && last[-1] == '>') last--;
    while (last > first && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\n' || last[-1] == '\r')) last--;
    cxml_put_string(p, first, (size_t)(last - first));
}

static void cxml_on_structured_error(void *ctx, xmlErrorPtr error) {
    // libxml2 reports an encoding error from xmlCreatePushParserCtxt, before _private is set.
    struct cxml_push *p = ctx ? cxml_owner(ctx) : NULL;
    if (!p || !error || error->level != XML_ERR_FATAL || p->error[0] != '\0') return;
    snprintf(p->error, sizeof p->error, "line %d, column %d: %s", error->line, error->int2,
             error->message ? error->message : "malformed XML");
    size_t n = strlen(p->error);
    while (n > 0 && (p->error[n - 1] == '\n' || p->error[n - 1] == ' ')) p->error[--n] = '\0';
}

cxml_push *cxml_push_new(void) {
    if (!cxml_available()) return NULL;
    struct cxml_push *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->max_depth = 512;
    cxml_lib.xmlSAXVersion(&p->sax, 2);
    p->sax.startElementNs = cxml_on_start;
    p->sax.endElementNs = cxml_on_end;
    p->sax.characters = cxml_on_text;
    p->sax.ignorableWhitespace = cxml_on_text;
    p->sax.cdataBlock = cxml_on_cdata;
    p->sax.comment = cxml_on_comment;
    p->sax.processingInstruction = cxml_on_instruction;
    p->sax.reference = cxml_on_reference;
    p->sax.internalSubset = cxml_on_doctype;
    p->sax.externalSubset = cxml_on_subset_end;
    p->sax.warning = NULL;
    p->sax.error = NULL;
    p->sax.fatalError = NULL;
    p->sax.serror = cxml_on_structured_error;
    return p;
}

void cxml_push_free(cxml_push *p) {
    if (!p) return;
    if (p->ctxt) {
        if (p->ctxt->myDoc) cxml_lib.xmlFreeDoc(p->ctxt->myDoc);
        p->ctxt->myDoc = NULL;
        cxml_lib.xmlFreeParserCtxt(p->ctxt);
    }
    free(p->events);
    free(p);
}

int cxml_push_feed(cxml_push *p, const char *bytes, int length, int terminate) {
    if (!p->ctxt) {
        // libxml2 detects the encoding from the first four bytes, so it is created with them.
        while (p->head_length < 4 && length > 0) {
            p->head[p->head_length++] = *bytes++;
            length--;
        }
        if (p->head_length < 4 && !terminate) return 0;
        p->ctxt = cxml_lib.xmlCreatePushParserCtxt(&p->sax, NULL, p->head, p->head_length, NULL);
        if (!p->ctxt) {
            snprintf(p->error, sizeof p->error, "libxml2 could not create a parser");
            return -1;
        }
        p->ctxt->_private = p;
        // No network and no external entities: a response must never make afcli fetch anything.
        // Not XML_PARSE_HUGE: it turns off libxml2's limits on entity amplification ("billion
        // laughs"); the caller feeds input in pieces well under libxml2's 10 MB lookup limit.
        cxml_lib.xmlCtxtUseOptions(p->ctxt, XML_PARSE_NONET);
    }
    cxml_lib.xmlParseChunk(p->ctxt, bytes, length, terminate);
    if (p->halted) return -1;
    if (p->out_of_memory) {
        snprintf(p->error, sizeof p->error, "out of memory");
        return -1;
    }
    if (!p->ctxt->wellFormed) {
        if (p->error[0] == '\0') snprintf(p->error, sizeof p->error, "malformed XML");
        return -1;
    }
    return 0;
}

unsigned char *cxml_push_take_events(cxml_push *p, size_t *length) {
    unsigned char *events = p->events;
    *length = p->length;
    p->events = NULL;
    p->length = 0;
    if (p->capacity > p->last_capacity) p->last_capacity = p->capacity;
    p->capacity = 0;
    return events;
}

void cxml_free(void *pointer) { free(pointer); }

const char *cxml_push_error(cxml_push *p) { return p->error[0] ? p->error : NULL; }

unsigned long cxml_push_last_offset(cxml_push *p, int *kind) {
    *kind = p->last_kind;
    return p->last_offset;
}

int cxml_push_subset_range(cxml_push *p, unsigned long *start, unsigned long *end) {
    if (p->subset_start == 0 || p->subset_end == 0) return 0;
    *start = p->subset_start - 1;
    *end = p->subset_end;
    return 1;
}

void cxml_push_set_max_depth(cxml_push *p, int depth) { p->max_depth = depth > 0 ? depth : 1; }

int cxml_push_too_deep(cxml_push *p) { return p->halted; }
