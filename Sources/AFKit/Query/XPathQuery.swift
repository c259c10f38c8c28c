import CXMLShim

/// An XPath 1.0 expression that cannot be evaluated: a document that is not well-formed XML, an
/// expression libxml2 refuses, or a result past a limit.
package struct XPathError: ClassifiedError, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }

    /// What the user asked for (the expression) or a response that is not XML: bad input.
    package var failureClass: FailureClass { .badInput }
}

/// The bounds of one XPath evaluation, so that a hostile document or expression ends in an error.
package struct XPathLimits: Sendable {
    /// The largest document accepted.
    package var maximumDocumentBytes = 16 * 1024 * 1024
    /// The longest expression accepted.
    package var maximumExpressionLength = 4096
    /// The most evaluation steps (libxml2's operation limit).
    package var maximumOperations: UInt = 10_000_000
    /// The most nodes a node-set result may hold.
    package var maximumResults = 100_000
    /// The most bytes of string values returned in all.
    package var maximumResultBytes = 16 * 1024 * 1024

    package init() {}
}

/// XPath 1.0 through libxml2 (loaded on first use): the values an expression picks out of an XML
/// document, for `{{name.response.body.//item[1]/title}}` and `?? xpath` checks.
package enum XPathQuery {
    /// The string value of each node the expression selects, in document order (an element's is
    /// its text, an attribute's its value), or the one string, number or boolean it computes,
    /// written as XPath's `string()` writes it (`3`, `NaN`, `true`).
    package static func evaluate(document: [UInt8], expression: String, limits: XPathLimits = XPathLimits())
        throws(XPathError) -> [String]
    {
        guard document.count <= limits.maximumDocumentBytes else {
            throw XPathError("the XML document is larger than \(limits.maximumDocumentBytes) bytes")
        }
        guard expression.unicodeScalars.count <= limits.maximumExpressionLength else {
            throw XPathError("the XPath expression is longer than \(limits.maximumExpressionLength) characters")
        }
        guard !expression.utf8.contains(0) else { throw XPathError("the XPath expression contains a NUL character") }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 512)
        let status = document.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                cxml_xpath_evaluate(
                    chars.baseAddress, Int32(chars.count), expression, UInt(limits.maximumOperations),
                    limits.maximumResults, limits.maximumResultBytes, &output, &length, &message, message.count)
            }
        }
        guard status == 0, let output else {
            throw XPathError(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { cxml_free(output) }
        return strings(in: UnsafeBufferPointer(start: output, count: length))
    }

    /// The strings of the shim's result buffer, after its kind.
    private static func strings(in buffer: UnsafeBufferPointer<UInt8>) -> [String] {
        func readLength(at position: Int) -> Int {
            var value: UInt32 = 0
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: buffer[position..<position + 4]) }
            return Int(value)
        }
        var values: [String] = []
        var position = 4
        while position + 4 <= buffer.count {
            let count = readLength(at: position)
            position += 4
            values.append(String(decoding: buffer[position..<position + count], as: UTF8.self))
            position += count
        }
        return values
    }
}
