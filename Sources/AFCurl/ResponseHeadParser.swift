/// Rebuilds response heads from the lines libcurl hands to its header callback.
///
/// libcurl calls the header callback once per complete line, for every response on the
/// connection: 1xx interim responses, a digest challenge it answers itself, the final response
/// and, after the body, chunked trailers. A status line starts a new head; the empty line ends
/// it. Lines arriving while no head is open (trailers) are ignored. A head that exceeds the
/// header limits of `ResponseLimits` is reported instead of growing without bound.
package struct ResponseHeadParser {
    /// The result of feeding one line.
    package enum Event {
        /// Nothing complete yet.
        case none
        /// A head ended with its empty line.
        case completed(ResponseHead)
        /// The open head exceeds a header limit; the transfer should stop.
        case limitExceeded(ResponseLimitViolation)
    }

    private var statusCode = 0
    private var reasonPhrase = ""
    private var httpVersion = ""
    private var headers: [(name: String, value: String)] = []
    private var isOpen = false
    /// Bytes of the open head so far, status line included.
    private var headBytes = 0

    /// A parser waiting for its first status line.
    package init() {}

    /// Feeds one raw header line, CRLF included.
    package mutating func feed(_ line: UnsafeRawBufferPointer) -> Event {
        if line.count > ResponseLimits.maxHeaderLineBytes {
            return .limitExceeded(.headerLineLength(limit: ResponseLimits.maxHeaderLineBytes))
        }
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D {
            end -= 1
        }
        let bytes = UnsafeRawBufferPointer(rebasing: line[0..<end])
        if bytes.isEmpty {
            guard isOpen else { return .none }
            isOpen = false
            return .completed(
                ResponseHead(
                    statusCode: statusCode, reasonPhrase: reasonPhrase, httpVersion: httpVersion,
                    headers: headers))
        }
        if ResponseHeadParser.isStatusLine(bytes) {
            parseStatusLine(bytes)
            headBytes = line.count
            return .none
        }
        guard isOpen else { return .none }
        headBytes += line.count
        if headBytes > ResponseLimits.maxHeadBytes {
            return .limitExceeded(.headSize(limit: ResponseLimits.maxHeadBytes))
        }
        if bytes[0] == 0x20 || bytes[0] == 0x09 {
            // Obsolete line folding (RFC 9112 §5.2): the continuation joins the previous value.
            if !headers.isEmpty {
                let continuation = HeaderText.decode(ResponseHeadParser.trimmed(bytes, from: 0, to: bytes.count))
                headers[headers.count - 1].value += " " + continuation
            }
            return .none
        }
        // Work on bytes: this runs for every header of every response, and character-level
        // String processing costs several times more here.
        if let colon = bytes.firstIndex(of: 0x3A) {
            guard headers.count < ResponseLimits.maxHeaderCount else {
                return .limitExceeded(.headerCount(limit: ResponseLimits.maxHeaderCount))
            }
            let name = HeaderText.decode(UnsafeRawBufferPointer(rebasing: bytes[0..<colon]))
            let value = HeaderText.decode(ResponseHeadParser.trimmed(bytes, from: colon + 1, to: bytes.count))
            headers.append((name: name, value: value))
        }
        return .none
    }

    /// Whether a line is a status line (`HTTP/…`) rather than a field.
    private static func isStatusLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 5 && bytes[0] == 0x48 && bytes[1] == 0x54 && bytes[2] == 0x54 && bytes[3] == 0x50
            && bytes[4] == 0x2F
    }

    /// The bytes in `start..<end` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> UnsafeRawBufferPointer {
        var start = start
        var end = end
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Starts a new head from `HTTP/1.1 200 OK` or `HTTP/2 200`. Works on bytes, like the fields:
    /// String splitting and slicing here cost a tenth of a millisecond of generic-type set-up on
    /// every run, for one line.
    private mutating func parseStatusLine(_ bytes: UnsafeRawBufferPointer) {
        let end = bytes.count
        let firstSpace = bytes.firstIndex(of: 0x20) ?? end
        httpVersion = HeaderText.decode(UnsafeRawBufferPointer(rebasing: bytes[0..<firstSpace]))
        let codeStart = min(firstSpace + 1, end)
        var codeEnd = codeStart
        while codeEnd < end, bytes[codeEnd] != 0x20 { codeEnd += 1 }
        statusCode = ResponseHeadParser.decimal(UnsafeRawBufferPointer(rebasing: bytes[codeStart..<codeEnd])) ?? 0
        reasonPhrase =
            codeEnd < end ? HeaderText.decode(ResponseHeadParser.trimmed(bytes, from: codeEnd + 1, to: end)) : ""
        headers = []
        // Room for a typical head, so the first fields do not regrow the array.
        headers.reserveCapacity(12)
        isOpen = true
    }

    /// The value of a run of ASCII digits, or nil when it is empty, holds anything else or overflows.
    private static func decimal(_ digits: UnsafeRawBufferPointer) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}

/// Turns header bytes into text without losing any: UTF-8 when valid, else ISO-8859-1.
package enum HeaderText {
    /// Decodes bytes as UTF-8 if they are valid UTF-8, otherwise byte-for-byte as Latin-1
    /// (RFC 9110 §5.5 allows obs-text; Latin-1 keeps every byte visible and reversible).
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        // ASCII, nearly every header, is valid UTF-8: no need for the generic validating decoder.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            scalars.append(Unicode.Scalar(byte))
        }
        return String(scalars)
    }
}
