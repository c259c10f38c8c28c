// XPath 1.0 over a document in memory, through libxml2 (loaded on first use, see cxml_shim.c).
#include "cxml_lib.h"
#include "cxml_shim.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The result being built, and the first error libxml2 reported.
struct cxml_xpath_run {
    unsigned char *buffer;
    size_t length;
    size_t capacity;
    size_t max_bytes;
    int too_large;
    char error[256];
};

// libxml2 reports errors through these instead of printing them to standard error.
static void cxml_xpath_structured_error(void *context, xmlErrorPtr error) {
    struct cxml_xpath_run *run = context;
    if (run->error[0] != '\0' || !error || !error->message || error->level < XML_ERR_ERROR) return;
    snprintf(run->error, sizeof run->error, "%s", error->message);
    size_t length = strlen(run->error);
    while (length > 0 && (run->error[length - 1] == '\n' || run->error[length - 1] == ' ')) run->error[--length] = '\0';
}

static void cxml_xpath_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

// Appends `length` bytes; past max_bytes (or out of memory) marks the run too large.
static void cxml_xpath_append(struct cxml_xpath_run *run, const void *bytes, size_t length) {
    if (run->too_large) return;
    size_t needed = run->length + length;
    if (needed > run->max_bytes) { run->too_large = 1; return; }
    if (needed > run->capacity) {
        size_t capacity = run->capacity ? run->capacity : 4096;
        while (capacity < needed) capacity *= 2;
        unsigned char *grown = realloc(run->buffer, capacity);
        if (!grown) { run->too_large = 1; return; }
        run->buffer = grown;
        run->capacity = capacity;
    }
    memcpy(run->buffer + run->length, bytes, length);
    run->length = needed;
}

// Appends a 32-bit length and the bytes.
static void cxml_xpath_put(struct cxml_xpath_run *run, const void *bytes, uint32_t length) {
    cxml_xpath_append(run, &length, 4);
    cxml_xpath_append(run, bytes, length);
}

// Appends a string libxml2 allocated, and releases it.
static void cxml_xpath_put_owned(struct cxml_xpath_run *run, xmlChar *text) {
    if (!text) { cxml_xpath_put(run, "", 0); return; }
    cxml_xpath_put(run, text, (uint32_t)strlen((const char *)text));
    (*cxml_lib.xmlFree_variable)(text);
}

int cxml_xpath_evaluate(const char *bytes, int length, const char *expression, unsigned long max_operations,
                        size_t max_results, size_t max_bytes, unsigned char **out, size_t *out_length,
                        char *error, size_t error_size) {
    *out = NULL;
    *out_length = 0;
    if (!cxml_available()) {
        snprintf(error, error_size, "%s", cxml_load_error());
        return -1;
    }
    struct cxml_xpath_run run = {.max_bytes = max_bytes};
    cxml_lib.xmlSetStructuredErrorFunc(&run, cxml_xpath_structured_error);
    cxml_lib.xmlSetGenericErrorFunc(NULL, cxml_xpath_generic_error);
    int status = -1;
    xmlXPathContextPtr context = NULL;
    xmlXPathCompExprPtr compiled = NULL;
    xmlXPathObjectPtr result = NULL;
    // No network, no DTD loading, no entity substitution; not XML_PARSE_HUGE, so libxml2's
    // limits on entity amplification and nesting stay on.
    xmlDocPtr document = cxml_lib.xmlReadMemory(bytes, length, NULL, NULL, XML_PARSE_NONET);
    if (!document) {
        snprintf(error, error_size, "the document is not well-formed XML%s%s", run.error[0] ? ": " : "", run.error);
        goto done;
    }
    context = cxml_lib.xmlXPathNewContext(document);
    compiled = context ? cxml_lib.xmlXPathCompile((const xmlChar *)expression) : NULL;
    if (!compiled) {
        snprintf(error, error_size, "not an XPath 1.0 expression%s%s", run.error[0] ? ": " : "", run.error);
        goto done;
    }
    // libxml2 counts the operations of an evaluation and stops past the limit.
    context->opLimit = max_operations;
    context->opCount = 0;
    run.error[0] = '\0';
    result = cxml_lib.xmlXPathCompiledEval(compiled, context);
    if (!result) {
        snprintf(error, error_size, "the expression could not be evaluated%s%s", run.error[0] ? ": " : "", run.error);
        goto done;
    }
    uint32_t kind = result->type == XPATH_NODESET ? 0 : 1;
    cxml_xpath_append(&run, &kind, 4);
    if (result->type == XPATH_NODESET) {
        int count = result->nodesetval ? result->nodesetval->nodeNr : 0;
        if ((size_t)count > max_results) {
            snprintf(error, error_size, "the expression selects more than %zu nodes", max_results);
            goto done;
        }
        for (int index = 0; index < count && !run.too_large; index++) {
            cxml_xpath_put_owned(&run, cxml_lib.xmlXPathCastNodeToString(result->nodesetval->nodeTab[index]));
        }
    } else {
        cxml_xpath_put_owned(&run, cxml_lib.xmlXPathCastToString(result));
    }
    if (run.too_large) {
        snprintf(error, error_size, "the result is larger than %zu bytes", max_bytes);
        goto done;
    }
    *out = run.buffer;
    *out_length = run.length;
    run.buffer = NULL;
    status = 0;
done:
    if (result) cxml_lib.xmlXPathFreeObject(result);
    if (compiled) cxml_lib.xmlXPathFreeCompExpr(compiled);
    if (context) cxml_lib.xmlXPathFreeContext(context);
    if (document) cxml_lib.xmlFreeDoc(document);
    cxml_lib.xmlSetStructuredErrorFunc(NULL, NULL);
    cxml_lib.xmlSetGenericErrorFunc(NULL, NULL);
    free(run.buffer);
    return status;
}
