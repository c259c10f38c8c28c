import Glibc

/// A reference to a value of an earlier request of the same run, in REST Client's request
/// variable syntax: `NAME.response.body.$.token` (JSONPath), `NAME.response.body.//item[1]/title`
/// (XPath), `NAME.response.body.*` (the whole body), `NAME.response.headers.Location`, and the
/// same of `NAME.request`.
package struct RequestReference: Equatable, Sendable {
    package enum Side: String, Sendable {
        case request, response
    }

    package enum Part: Equatable, Sendable {
        /// The whole body (`*`).
        case wholeBody
        /// The first value a JSONPath (`$…`) selects in a JSON body.
        case jsonPath(String)
        /// The string value of the first node an XPath (`/…`) selects in an XML body.
        case xPath(String)
        /// A header's value, its name compared case-insensitively.
        case header(String)
    }

    /// The request's name (`# @name`).
    package var name: String
    package var side: Side
    package var part: Part
    /// The reference as written, for messages.
    package var text: String

    /// The reference `text` makes, or nil when it is no request reference (a plain variable).
    package init?(parsing text: String) {
        let bytes = Array(text.utf8)
        for (side, partWord, marker) in Self.markers {
            guard let start = Self.firstOffset(of: marker, in: bytes) else { continue }
            let name = String(decoding: bytes[..<start], as: UTF8.self)
            let path = String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
            guard !name.isEmpty, !name.containsUTF8Byte(UInt8(ascii: "{")), !path.isEmpty else { return nil }
            let part: Part
            if partWord == "headers" {
                part = .header(path)
            } else if path == "*" {
                part = .wholeBody
            } else if path.hasASCIIPrefix("$") {
                part = .jsonPath(path)
            } else if path.hasASCIIPrefix("/") {
                part = .xPath(path)
            } else {
                return nil
            }
            self.name = name
            self.side = side
            self.part = part
            self.text = text
            return
        }
        return nil
    }

    /// Where `marker` (which starts with `.`) first occurs in `bytes` with something after it.
    private static func firstOffset(of marker: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count > marker.count else { return nil }
        return bytes.withUnsafeBufferPointer { text in
            marker.withUnsafeBufferPointer { wanted in
                var offset = 0
                while offset <= text.count - wanted.count {
                    if text[offset] == UInt8(ascii: "."),
                        memcmp(text.baseAddress! + offset, wanted.baseAddress!, wanted.count) == 0
                    {
                        return offset
                    }
                    offset += 1
                }
                return nil
            }
        }
    }

    /// `.response.body.`, `.response.headers.`, `.request.body.`, `.request.headers.`, in the
    /// order they are looked for.
    private static let markers: [(Side, String, [UInt8])] = [Side.response, .request].flatMap { side in
        ["body", "headers"].map { (side, $0, Array(("." + side.rawValue + "." + $0 + ".").utf8)) }
    }
}

/// A request value that cannot be given: the request failed or never ran, or the path selects
/// nothing. Nothing of the request that asked for it is sent.
package struct RequestReferenceError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    package var reason: String

    package init(_ reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
    package var failureClass: FailureClass { .badInput }
}
