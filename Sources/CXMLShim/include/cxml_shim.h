// The only libxml2 surface afcli sees. libxml2's own headers pull in ICU, whose headers clash
// with Foundation's module maps, so they are included by cxml_shim.c alone; Swift sees opaque
// handles and plain C types.
#ifndef CXML_SHIM_H
#define CXML_SHIM_H

#include <stddef.h>

/// Node kinds of the push parser's event records, numbered as libxml2's xmlReaderTypes.
enum cxml_node_kind {
    CXML_NODE_NONE = 0,
    CXML_NODE_ELEMENT = 1,
    CXML_NODE_ATTRIBUTE = 2,
    CXML_NODE_TEXT = 3,
    CXML_NODE_CDATA = 4,
    CXML_NODE_ENTITY_REFERENCE = 5,
    CXML_NODE_PROCESSING_INSTRUCTION = 7,
    CXML_NODE_COMMENT = 8,
    CXML_NODE_DOCUMENT_TYPE = 10,
    CXML_NODE_WHITESPACE = 13,
    CXML_NODE_SIGNIFICANT_WHITESPACE = 14,
    CXML_NODE_END_ELEMENT = 15,
    CXML_NODE_XML_DECLARATION = 17
};

/// Whether libxml2 could be loaded (it is loaded on first use, not at start-up).
int cxml_available(void);
/// Why libxml2 could not be loaded, or NULL when it was.
const char *cxml_load_error(void);

/// A streaming push parser (libxml2's SAX2 push interface): bytes go in as they arrive, and each
/// chunk's events come out as records in one buffer, with no document tree.
typedef struct cxml_push cxml_push;

/// Creates a push parser; network access and external entities are disabled. Returns NULL when
/// libxml2 cannot be loaded (see cxml_load_error) or memory is short.
cxml_push *cxml_push_new(void);
/// Releases the parser.
void cxml_push_free(cxml_push *parser);
/// Parses the next `length` bytes (`terminate` 1 for the end of the input), appending records to
/// the event buffer: 0 on success, -1 once the input is malformed (see cxml_push_error).
int cxml_push_feed(cxml_push *parser, const char *bytes, int length, int terminate);
/// Hands over the event buffer (NULL when there were no events) and its length, leaving the
/// parser an empty one; release it with cxml_free. Spares a copy when another thread prints. Each record is a
/// kind byte (a cxml_node_kind), three zero bytes, a 32-bit count of strings, then the strings,
/// each a 32-bit length (0xFFFFFFFF for none) and its UTF-8 bytes: ELEMENT has the qualified name
/// then name/value pairs for namespace declarations and attributes; END_ELEMENT the name; TEXT,
/// CDATA, COMMENT the text; PROCESSING_INSTRUCTION target and data; DOCUMENT_TYPE name, public
/// and system identifiers and the internal subset as received from `[` to `]` (none when the
/// DOCTYPE has none, empty when it could not be kept); ENTITY_REFERENCE the entity's name. Integers are in host byte order.
unsigned char *cxml_push_take_events(cxml_push *parser, size_t *length);
/// Releases memory the shim handed over.
void cxml_free(void *pointer);
/// The first fatal error, as `line L, column C: message`, or NULL.
const char *cxml_push_error(cxml_push *parser);
/// The input offset at the last event recorded, and that event's kind (0 before any).
unsigned long cxml_push_last_offset(cxml_push *parser, int *kind);
/// Where the internal DTD subset was in the input: from its `[` to just after the DOCTYPE's `>`;
/// 0 when there was none (or it has not been read yet). For a DOCTYPE record whose subset is
/// empty because it had left libxml2's buffer: the caller copies it from its own input.
int cxml_push_subset_range(cxml_push *parser, unsigned long *start, unsigned long *end);
/// Sets the deepest element nesting accepted (512 by default); a deeper element stops the parser
/// with the error "nesting deeper than N levels".
void cxml_push_set_max_depth(cxml_push *parser, int depth);
/// Whether the parser stopped at an element nested deeper than that.
int cxml_push_too_deep(cxml_push *parser);

/// Evaluates the XPath 1.0 `expression` on the XML document `bytes` (parsed without network
/// access, DTD loading or entity substitution). On success returns 0 and sets `*out` (release it
/// with cxml_free) to a 32-bit kind (0 a node-set, 1 a string, number or boolean) followed by
/// strings, each a 32-bit length and its UTF-8 bytes: the string value of each node in document
/// order, or the one result converted to a string as XPath's string() does. Stops past
/// `max_operations` evaluation steps, `max_results` nodes or `max_bytes` of output. On failure
/// returns -1 with a message in `error`.
int cxml_xpath_evaluate(const char *bytes, int length, const char *expression, unsigned long max_operations,
                        size_t max_results, size_t max_bytes, unsigned char **out, size_t *out_length,
                        char *error, size_t error_size);

#endif
