// The only libxml2 surface afcli sees. libxml2's own headers pull in ICU, whose headers clash
// with Foundation's module maps, so they are included by cxml_shim.c alone; Swift sees opaque
// handles and plain C types.
#ifndef CXML_SHIM_H
#define CXML_SHIM_H

#include <stddef.h>

/// An opaque streaming XML reader (libxml2's xmlTextReader): one node at a time, no document tree.
typedef struct cxml_reader cxml_reader;

/// Node kinds reported by cxml_reader_node_kind, a subset of libxml2's xmlReaderTypes.
enum cxml_node_kind {
    CXML_NODE_NONE = 0,
    CXML_NODE_ELEMENT = 1,
    CXML_NODE_ATTRIBUTE = 2,
    CXML_NODE_TEXT = 3,
    CXML_NODE_CDATA = 4,
    CXML_NODE_PROCESSING_INSTRUCTION = 7,
    CXML_NODE_COMMENT = 8,
    CXML_NODE_DOCUMENT_TYPE = 10,
    CXML_NODE_WHITESPACE = 13,
    CXML_NODE_SIGNIFICANT_WHITESPACE = 14,
    CXML_NODE_END_ELEMENT = 15,
    CXML_NODE_XML_DECLARATION = 17
};

/// Reads more input: fills `buffer` with up to `capacity` bytes and returns the count, 0 at the
/// end, or -1 on failure.
typedef int (*cxml_input_fn)(void *context, char *buffer, int capacity);

/// Whether libxml2 could be loaded (it is loaded on first use, not at start-up).
int cxml_available(void);
/// Why libxml2 could not be loaded, or NULL when it was.
const char *cxml_load_error(void);

/// Creates a reader that pulls its input through `input`; network access and entity expansion
/// are disabled. Returns NULL when libxml2 cannot be loaded or cannot allocate a reader.
cxml_reader *cxml_reader_new(cxml_input_fn input, void *context);
/// Releases the reader.
void cxml_reader_free(cxml_reader *reader);
/// Advances to the next node: 1 on success, 0 at the end of the document, -1 on malformed input.
int cxml_reader_next(cxml_reader *reader);
/// The current node's kind.
int cxml_reader_node_kind(cxml_reader *reader);
/// The current node's qualified name, or NULL; valid until the next call to cxml_reader_next.
const char *cxml_reader_name(cxml_reader *reader);
/// The current node's text value, or NULL; valid until the next call to cxml_reader_next.
const char *cxml_reader_value(cxml_reader *reader);
/// Whether the current element is empty (`<a/>`).
int cxml_reader_is_empty_element(cxml_reader *reader);
/// The depth of the current node in the tree.
int cxml_reader_depth(cxml_reader *reader);
/// Moves to the next attribute of the current element: 1 when there is one, 0 when not.
int cxml_reader_next_attribute(cxml_reader *reader);
/// The last error libxml2 reported for this reader, or NULL.
const char *cxml_reader_error(cxml_reader *reader);

#endif
