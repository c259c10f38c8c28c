import AFKit

/// XPath 1.0 evaluation through libxml2.
enum XPathHarness {
    /// Input: an expression, a NUL byte, an XML document. Evaluation returns values or an error,
    /// within the limits: never a crash, a hang or output past the byte limit.
    static func run(_ input: UnsafeRawBufferPointer) {
        let fields = input.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let expression = String(decoding: fields[0], as: UTF8.self)
        let document = fields.count > 1 ? Array(fields[1]) : []
        var limits = XPathLimits()
        limits.maximumOperations = 200_000
        limits.maximumResultBytes = 1 << 20
        guard let values = try? XPathQuery.evaluate(document: document, expression: expression, limits: limits) else {
            return
        }
        FuzzInvariant.check(values.count <= limits.maximumResults, "at most \(limits.maximumResults) values")
        FuzzInvariant.check(
            values.reduce(0) { $0 + $1.utf8.count } <= limits.maximumResultBytes, "values within the byte limit")
    }
}
