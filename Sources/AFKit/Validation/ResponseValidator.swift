/// AFNetworking's response validation (`-[AFHTTPResponseSerializer validateResponse:data:error:]`):
/// an acceptable status code and, for a non-empty body, an acceptable content type.
package struct ResponseValidator: Equatable, Sendable {
    /// The acceptable status codes; AF's default is 200–299.
    package var acceptableStatusCodes: StatusCodeSet
    /// The acceptable media types (lower case, no parameters); nil accepts any type, as AF's
    /// base serializer does.
    package var acceptableContentTypes: Set<String>?

    package init(acceptableStatusCodes: StatusCodeSet = .successful, acceptableContentTypes: Set<String>? = nil) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Checks a response; `contentType` is the raw header value (nil when absent) and `bodyLength`
    /// the number of body bytes. Returns nil when the response is acceptable.
    package func validate(statusCode: Int, contentType: String?, bodyLength: Int) -> ResponseValidationError? {
        var typeFailure: ResponseValidationError?
        let mediaType = contentType.map { ResponseMediaType($0).essence }
        // AF: `!([response MIMEType] == nil && [data length] == 0)` and the error only for a
        // non-empty body, so an empty body never fails on its type.
        if let acceptable = acceptableContentTypes, bodyLength > 0, !(mediaType.map(acceptable.contains) ?? false) {
            typeFailure = .unacceptableContentType(mediaType)
        }
        if !acceptableStatusCodes.contains(statusCode) {
            return .unacceptableStatusCode(
                statusCode, underlying: typeFailure.map { [$0] } ?? [], accepted: acceptableStatusCodes)
        }
        return typeFailure
    }
}

/// A validation failure, with AFNetworking's localized description as its text.
package enum ResponseValidationError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// The status code is not acceptable (not in `accepted`); when the content type failed too,
    /// that failure is the underlying one (AF keeps it as `NSUnderlyingError`).
    case unacceptableStatusCode(Int, underlying: [ResponseValidationError], accepted: StatusCodeSet = .successful)
    /// The media type is not acceptable (nil: the response had none).
    case unacceptableContentType(String?)

    /// The status code, for a status failure.
    package var statusCode: Int? {
        if case .unacceptableStatusCode(let code, _, _) = self { return code }
        return nil
    }

    /// The failure under this one, if any.
    package var underlyingError: ResponseValidationError? {
        if case .unacceptableStatusCode(_, let underlying, _) = self { return underlying.first }
        return nil
    }

    /// A refused status is told apart by its class as `--check-status` does; a refused content
    /// type is a rejected response.
    package var failureClass: FailureClass {
        switch self {
        case .unacceptableStatusCode(let code, _, _): return .unacceptableStatus(code)
        case .unacceptableContentType: return .responseRejected
        }
    }

    /// `Request failed: not found (404)` or `Request failed: unacceptable content-type: text/html`,
    /// AF's texts; a status refused by codes of the user's (`--accept-status`) is named with them,
    /// since Foundation's reason for a refused 2xx (`no error (200)`) would read as a success.
    package var description: String {
        switch self {
        case .unacceptableStatusCode(let code, _, let accepted) where accepted != .successful:
            let reason = (200..<300).contains(code) ? "" : " (\(HTTPStatusText.reason(for: code)))"
            return "Request failed: status \(code)\(reason) is not one of --accept-status \(accepted)"
        case .unacceptableStatusCode(let code, _, _):
            return "Request failed: \(HTTPStatusText.reason(for: code)) (\(code))"
        case .unacceptableContentType(let type):
            // Foundation formats a nil MIME type with %@ as "(null)".
            return "Request failed: unacceptable content-type: \(type ?? "(null)")"
        }
    }
}

/// A set of status codes from `--accept-status`, such as `200-299,304`.
package struct StatusCodeSet: Equatable, Sendable, CustomStringConvertible {
    /// The ranges, in the order given.
    package var ranges: [ClosedRange<Int>]

    package init(_ ranges: [ClosedRange<Int>]) {
        self.ranges = ranges
    }

    /// AF's default: 200–299.
    package static let successful = StatusCodeSet([200...299])

    package func contains(_ code: Int) -> Bool {
        ranges.contains { $0.contains(code) }
    }

    /// Parses comma-separated codes and ranges of codes from 100 to 599 (`200-299,304`); nil when
    /// the text is not such a list.
    package init?(parsing text: String) {
        var ranges: [ClosedRange<Int>] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard bounds.allSatisfy({ $0.count == 3 && $0.allSatisfy { ("0"..."9").contains($0) } }),
                let low = Int(bounds[0]), let high = Int(bounds[bounds.count - 1]),
                (100...599).contains(low), (100...599).contains(high), low <= high
            else { return nil }
            ranges.append(low...high)
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    package var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ",")
    }
}

/// The reason texts of `+[NSHTTPURLResponse localizedStringForStatusCode:]`, which AF puts in
/// its status failure message; codes Foundation has no text for get their class's text.
package enum HTTPStatusText {
    /// The lower-case reason for `code` (`not found` for 404).
    package static func reason(for code: Int) -> String {
        if let text = known[code] { return text }
        switch code {
        case 100..<200: return "informational"
        case 200..<300: return "success"
        case 300..<400: return "redirected"
        case 400..<500: return "client error"
        case 500..<600: return "server error"
        default: return "server error"
        }
    }

    private static let known: [Int: String] = [
        100: "continue", 101: "switching protocols", 200: "no error", 201: "created", 202: "accepted",
        203: "non-authoritative information", 204: "no content", 205: "reset content", 206: "partial content",
        300: "multiple choices", 301: "moved permanently", 302: "found", 303: "see other", 304: "not modified",
        305: "needs proxy", 307: "redirected", 400: "bad request", 401: "unauthorized", 402: "payment required",
        403: "forbidden", 404: "not found", 405: "method not allowed", 406: "unacceptable",
        407: "proxy authentication required", 408: "request timed out", 409: "conflict", 410: "no longer exists",
        411: "length required", 412: "precondition failed", 413: "request too large", 414: "requested URL too long",
        415: "unsupported media type", 416: "requested range not satisfiable", 417: "expectation failed",
        500: "internal server error", 501: "unimplemented", 502: "bad gateway", 503: "service unavailable",
        504: "gateway timed out", 505: "unsupported version",
    ]
}

/// Parses `--accept-type`: comma-separated media types, where `json`, `xml`, `plist` and `image`
/// stand for AF's table for that serializer.
package enum AcceptableContentTypes {
    /// The set of media types, lower-cased; nil when an entry is neither a keyword nor `type/subtype`.
    package static func parse(_ text: String) -> Set<String>? {
        var types: Set<String> = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = entry.trimmingSpaces().lowercased()
            if let kind = ResponseSerializerKind(rawValue: name), kind != .data {
                types.formUnion(kind.acceptableContentTypes)
                continue
            }
            let halves = name.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty, !name.contains(" "), !name.contains(";")
            else { return nil }
            types.insert(name)
        }
        return types.isEmpty ? nil : types
    }
}

extension Substring {
    /// The text without spaces at either end.
    fileprivate func trimmingSpaces() -> String {
        var slice = self
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
