// The libxml2 functions afcli calls, resolved with dlsym once (cxml_shim.c), for the shim's .c
// files only: every libxml2 function the shim uses is listed here, so a missing one is reported
// by cxml_load_error instead of failing at the call.
#ifndef CXML_LIB_H
#define CXML_LIB_H

#include <libxml/xmlreader.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#define CXML_FUNCTIONS(X)                                                                          \
    X(xmlSAXVersion)                                                                              \
    X(xmlSAX2InternalSubset)                                                                      \
    X(xmlCreatePushParserCtxt)                                                                    \
    X(xmlCtxtUseOptions)                                                                          \
    X(xmlParseChunk)                                                                              \
    X(xmlFreeParserCtxt)                                                                          \
    X(xmlStopParser)                                                                              \
    X(xmlFreeDoc)                                                                                 \
    X(xmlReadMemory)                                                                              \
    X(xmlSetStructuredErrorFunc)                                                                  \
    X(xmlSetGenericErrorFunc)                                                                     \
    X(xmlXPathNewContext)                                                                         \
    X(xmlXPathFreeContext)                                                                        \
    X(xmlXPathCompile)                                                                            \
    X(xmlXPathCompiledEval)                                                                       \
    X(xmlXPathFreeCompExpr)                                                                       \
    X(xmlXPathFreeObject)                                                                         \
    X(xmlXPathCastNodeToString)                                                                   \
    X(xmlXPathCastToString)

struct cxml_lib_functions {
#define CXML_FIELD(name) __typeof__(&name) name;
    CXML_FUNCTIONS(CXML_FIELD)
#undef CXML_FIELD
    /// The address of libxml2's `xmlFree` variable (the deallocator of the strings it returns).
    xmlFreeFunc *xmlFree_variable;
};

extern struct cxml_lib_functions cxml_lib;

#endif
