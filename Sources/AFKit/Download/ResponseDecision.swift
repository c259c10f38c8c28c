import AFCurl

/// What to do with the final response of a download request, decided from its status and
/// `Content-Range` alone (RFC 9110 §14 and §15.3.7, §15.5.17), so the rules can be tested
/// without a server.
package enum ResponseDecision: Equatable, Sendable {
    /// Write the body from byte 0: a fresh download, or a restart after the server ignored the
    /// range (200). `warning` explains a restart.
    case writeFromStart(warning: String?)
    /// Append the body at the requested offset; it carries `length` bytes and the resource is
    /// `complete` bytes long, as far as the server said.
    case append(length: Int64, complete: Int64?)
    /// 416 for a partial file that is already whole, or a whole body (from a server that ignores
    /// ranges) exactly as long as the file: nothing to transfer.
    case alreadyComplete
    /// 416 for a partial file that is not the size of the resource: start again without a range
    /// (AFNETWORKING.md §8).
    case restartWithoutRange
    /// Stop with this error; the partial file is left as it is.
    case fail(DownloadError)

    /// The warning given when a range request is answered with the whole resource.
    package static let restartWarning =
        "the server sent the whole file (it changed, or ranges are not supported); starting again from zero"

    /// Decides for a response with `status`, `contentRange` and `contentLength` to a request that
    /// asked for bytes from `offset` on (nil: no range was asked for), when the state says the
    /// resource is `knownTotal` bytes long. `path` names the partial file in errors.
    package static func decide(
        status: Int, reason: String, contentRange: String?, contentLength: Int64? = nil, offset: Int64?,
        knownTotal: Int64?, path: String
    ) -> ResponseDecision {
        guard let offset else {
            switch status {
            case 206: return .fail(.unsolicitedPartialContent)
            case 200...299: return .writeFromStart(warning: nil)
            default: return .fail(.httpStatus(code: status, reason: reason))
            }
        }
        switch status {
        case 206:
            // The range must start exactly where the file ends and describe the same resource;
            // a multipart/byteranges answer (no Content-Range) is refused too.
            guard let value = contentRange, case .range(let first, let last, let complete)? = ContentRange(value),
                first == offset
            else {
                return .fail(.unexpectedContentRange(value: contentRange, offset: offset, path: path))
            }
            if let knownTotal, let complete, complete != knownTotal {
                return .fail(.totalChanged(expected: knownTotal, now: complete, path: path))
            }
            return .append(length: last - first + 1, complete: complete ?? knownTotal)
        case 200...299:
            // A server without range support sends the whole resource again. Exactly as long as
            // the bytes already here (and the state's total), it is the file we have: complete,
            // as wget -c decides, rather than downloaded again beside it as NAME-1.
            if offset > 0, contentLength == offset, knownTotal == nil || knownTotal == offset {
                return .alreadyComplete
            }
            return .writeFromStart(warning: restartWarning)
        case 416:
            // Complete only when the server's length, the state's and the file's all agree.
            let complete = contentRange.flatMap(ContentRange.init)?.completeLength ?? knownTotal
            guard complete == offset, knownTotal == nil || knownTotal == complete else { return .restartWithoutRange }
            return .alreadyComplete
        default:
            return .fail(.httpStatus(code: status, reason: reason))
        }
    }
}

/// A parsed `Content-Range` header (RFC 9110 §14.4) in bytes.
package enum ContentRange: Equatable, Sendable {
    /// `bytes first-last/complete` of a 206; `complete` is nil for `*` (unknown length).
    case range(first: Int64, last: Int64, complete: Int64?)
    /// `bytes */complete` of a 416: the range asked for is outside a representation this long.
    case unsatisfied(complete: Int64)

    /// Parses a header value; nil when it is not a well-formed byte range (another unit,
    /// `last` before `first`, a `last` past the complete length, numbers with signs or spaces).
    package init?(_ value: String) {
        var text = Substring(value)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        guard text.count > 6, ASCIICase.lowercased(String(text.prefix(6))) == "bytes " else { return nil }
        text = text.dropFirst(6)
        while text.first == " " { text = text.dropFirst() }
        let halves = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let completeText = halves[1]
        if halves[0] == "*" {
            guard let complete = Self.number(completeText) else { return nil }
            self = .unsatisfied(complete: complete)
            return
        }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]), first <= last
        else { return nil }
        var complete: Int64?
        if completeText != "*" {
            guard let length = Self.number(completeText), last < length else { return nil }
            complete = length
        }
        self = .range(first: first, last: last, complete: complete)
    }

    /// A non-negative decimal number without sign; nil for anything else or an overflow.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text)
    }

    /// The number of bytes a `range` covers; nil for `unsatisfied`.
    package var length: Int64? {
        if case .range(let first, let last, _) = self { return last - first + 1 }
        return nil
    }

    /// The complete length, when the server stated it.
    package var completeLength: Int64? {
        switch self {
        case .range(_, _, let complete): return complete
        case .unsatisfied(let complete): return complete
        }
    }
}
