/// A `Content-Type` value taken apart: the media type without parameters, lower-cased (what
/// AFNetworking compares against its acceptable types), and the charset parameter.
package struct ResponseMediaType: Equatable, Sendable {
    /// `type/subtype`, lower-cased, without parameters; "" when the header was empty.
    package var essence: String
    /// The `charset` parameter as given (quotes removed), if any.
    package var charset: String?

    /// Parses a `Content-Type` header value.
    package init(_ header: String) {
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        essence = Self.trimmed(parts.next().map(String.init) ?? "").lowercased()
        charset = nil
        while let parameter = parts.next() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, Self.trimmed(String(pair[0])).lowercased() == "charset" else { continue }
            var value = Self.trimmed(String(pair[1]))
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            charset = value
        }
    }

    private static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }

    /// Whether the type is a structured-syntax `+json` or `+xml` type (RFC 6839) of `suffix`.
    package func hasSuffix(_ suffix: String) -> Bool {
        essence.hasSuffix("+" + suffix)
    }
}

/// Which of AFNetworking's response serializers a body belongs to, chosen by media type; it
/// decides how the body is checked (`--accept-type json`) and how it is shown.
package enum ResponseSerializerKind: String, CaseIterable, Sendable {
    /// AFJSONResponseSerializer.
    case json
    /// AFXMLParserResponseSerializer.
    case xml
    /// AFPropertyListResponseSerializer.
    case propertyList = "plist"
    /// AFImageResponseSerializer.
    case image
    /// AFHTTPResponseSerializer: anything else.
    case data

    /// AF's acceptable content types for each serializer (AFURLResponseSerialization.m).
    package var acceptableContentTypes: Set<String> {
        switch self {
        case .json: return ["application/json", "text/json", "text/javascript"]
        case .xml: return ["application/xml", "text/xml"]
        case .propertyList: return ["application/x-plist"]
        case .image:
            return [
                "image/tiff", "image/jpeg", "image/gif", "image/png", "image/ico", "image/x-icon", "image/bmp",
                "image/x-bmp", "image/x-xbitmap", "image/x-win-bitmap",
            ]
        case .data: return []
        }
    }

    /// The serializer for a media type: AF's tables first, then the structured suffixes (`+json`,
    /// `+xml`), NDJSON and any other `image/` type.
    package static func forMediaType(_ type: ResponseMediaType) -> ResponseSerializerKind {
        for kind in [ResponseSerializerKind.json, .xml, .propertyList, .image]
        where kind.acceptableContentTypes.contains(type.essence) {
            return kind
        }
        if type.hasSuffix("json") || Self.jsonSequenceTypes.contains(type.essence) { return .json }
        if type.hasSuffix("xml") { return .xml }
        if type.essence == "application/x-bplist" { return .propertyList }
        if type.essence.hasPrefix("image/") { return .image }
        return .data
    }

    /// Media types whose bodies are sequences of JSON values, one per line.
    package static let jsonSequenceTypes: Set<String> = [
        "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
        "application/json-seq",
    ]

    /// Whether a body of an unhelpful type (`text/plain`, none) looks like JSON: its first byte
    /// other than white space (after a UTF-8 byte order mark) is `{` or `[`.
    package static func looksLikeJSON(_ prefix: some Collection<UInt8>) -> Bool {
        var bytes = prefix.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
}
