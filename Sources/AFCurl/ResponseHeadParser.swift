import Glibc

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
    private var fields = HeaderFieldsBuilder()
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
                    fields: fields.finish()))
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
            fields.appendContinuation(ResponseHeadParser.trimmed(bytes, from: 0, to: bytes.count))
            return .none
        }
        // Work on bytes, and keep them: this runs for every header of every response, and most
        // fields are never read as text.
        if let colon = ResponseHeadParser.firstColon(in: bytes) {
            guard fields.count < ResponseLimits.maxHeaderCount else {
                return .limitExceeded(.headerCount(limit: ResponseLimits.maxHeaderCount))
            }
            fields.append(line: bytes, colon: colon, value: ResponseHeadParser.trimmedRange(bytes, from: colon + 1, to: bytes.count))
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
        UnsafeRawBufferPointer(rebasing: bytes[trimmedRange(bytes, from: start, to: end)])
    }

    /// The range `start..<end` without leading and trailing spaces and tabs.
    private static func trimmedRange(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Range<Int> {
        var start = start
        var end = end
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return start..<end
    }

    /// The index of the first `:` in `bytes`, found by memchr.
    private static func firstColon(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, 0x3A, bytes.count) else { return nil }
        // memchr found it within the `bytes.count` bytes from `base`.
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Starts a new head from `HTTP/1.1 200 OK` or `HTTP/2 200`. Works on bytes, like the fields:
    /// String splitting and slicing here cost a tenth of a millisecond of generic-type set-up on
    /// every run, for one line.
    private mutating func parseStatusLine(_ bytes: UnsafeRawBufferPointer) {
        let end = bytes.count
        let firstSpace = bytes.firstIndex(of: 0x20) ?? end
        httpVersion = ResponseHeadParser.versionText(UnsafeRawBufferPointer(rebasing: bytes[0..<firstSpace]))
        let codeStart = min(firstSpace + 1, end)
        var codeEnd = codeStart
        while codeEnd < end, bytes[codeEnd] != 0x20 { codeEnd += 1 }
        statusCode = ResponseHeadParser.decimal(UnsafeRawBufferPointer(rebasing: bytes[codeStart..<codeEnd])) ?? 0
        reasonPhrase =
            codeEnd < end ? HeaderText.decode(ResponseHeadParser.trimmed(bytes, from: codeEnd + 1, to: end)) : ""
        fields.start()
        isOpen = true
    }

    /// The protocol token as text: the usual ones are literals, made without decoding.
    private static func versionText(_ token: UnsafeRawBufferPointer) -> String {
        if matches(token, "HTTP/1.1") { return "HTTP/1.1" }
        if matches(token, "HTTP/2") { return "HTTP/2" }
        if matches(token, "HTTP/1.0") { return "HTTP/1.0" }
        if matches(token, "HTTP/3") { return "HTTP/3" }
        return HeaderText.decode(token)
    }

    /// Whether `token` holds exactly the bytes of `literal`.
    private static func matches(_ token: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard token.count == literal.utf8CodeUnitCount, let base = token.baseAddress else { return false }
        return memcmp(base, literal.utf8Start, token.count) == 0
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
        // ASCII, nearly every header, is valid UTF-8 as it is: copied in place, a short one
        // (most reason phrases and values) is made without another validating pass.
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return String(unsafeUninitializedCapacity: bytes.count) { target in
                UnsafeMutableRawBufferPointer(target).copyMemory(from: bytes)
                return bytes.count
            }
        }
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
