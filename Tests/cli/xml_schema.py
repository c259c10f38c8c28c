"""Validates an XML document against an XML Schema with libxml2 (which afcli itself loads for
XML bodies), through ctypes: no Python package is needed. `problems(xsd, xml)` returns the
validation errors, an empty list for a valid document."""

import ctypes
import ctypes.util


class _Error(ctypes.Structure):
    # The first fields of libxml2's xmlError (stable since libxml2 2.0).
    _fields_ = [("domain", ctypes.c_int), ("code", ctypes.c_int), ("message", ctypes.c_char_p)]


_Handler = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_Error))


def _library():
    name = ctypes.util.find_library("xml2") or "libxml2.so.2"
    lib = ctypes.CDLL(name)
    lib.xmlSchemaNewMemParserCtxt.restype = ctypes.c_void_p
    lib.xmlSchemaNewMemParserCtxt.argtypes = [ctypes.c_char_p, ctypes.c_int]
    lib.xmlSchemaParse.restype = ctypes.c_void_p
    lib.xmlSchemaParse.argtypes = [ctypes.c_void_p]
    lib.xmlSchemaFreeParserCtxt.argtypes = [ctypes.c_void_p]
    lib.xmlSchemaNewValidCtxt.restype = ctypes.c_void_p
    lib.xmlSchemaNewValidCtxt.argtypes = [ctypes.c_void_p]
    lib.xmlSchemaSetValidStructuredErrors.argtypes = [ctypes.c_void_p, _Handler, ctypes.c_void_p]
    lib.xmlSchemaValidateDoc.restype = ctypes.c_int
    lib.xmlSchemaValidateDoc.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.xmlSchemaFreeValidCtxt.argtypes = [ctypes.c_void_p]
    lib.xmlSchemaFree.argtypes = [ctypes.c_void_p]
    lib.xmlReadMemory.restype = ctypes.c_void_p
    lib.xmlReadMemory.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]
    lib.xmlFreeDoc.argtypes = [ctypes.c_void_p]
    return lib


def problems(xsd: bytes, xml: bytes):
    lib = _library()
    found = []

    @_Handler
    def collect(_, error):
        found.append(error.contents.message.decode("utf-8", "replace").strip())

    parser = lib.xmlSchemaNewMemParserCtxt(xsd, len(xsd))
    schema = lib.xmlSchemaParse(parser)
    lib.xmlSchemaFreeParserCtxt(parser)
    assert schema, "the schema does not parse"
    # XML_PARSE_NONET (2048): nothing is fetched.
    document = lib.xmlReadMemory(xml, len(xml), b"report.xml", None, 2048)
    if not document:
        lib.xmlSchemaFree(schema)
        return ["the document is not well-formed XML"]
    context = lib.xmlSchemaNewValidCtxt(schema)
    lib.xmlSchemaSetValidStructuredErrors(context, collect, None)
    status = lib.xmlSchemaValidateDoc(context, document)
    lib.xmlSchemaFreeValidCtxt(context)
    lib.xmlFreeDoc(document)
    lib.xmlSchemaFree(schema)
    if status != 0 and not found:
        found.append(f"validation failed ({status})")
    return found
