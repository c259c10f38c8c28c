/// A parsed `--write-out` format, curl's `-w` language: text with `%{variable}`, `%header{name}`,
/// `%%`, and the escapes `\n`, `\r`, `\t`.
///
/// Parsing follows curl 7.88's tool_writeout.c byte for byte, quirks included: a `%{` or
/// `%header{` without its `}` is printed as is, `%` before any other character is printed with
/// that character, a backslash before anything but `n`, `r` or `t` is printed with it, and
/// variable names are matched without regard to case. An unknown variable prints nothing and is
/// reported (`unknownVariables`), as curl warns about it.
package struct WriteOutFormat: Equatable, Sendable {
    /// One piece of the format, in order.
    package enum Segment: Equatable, Sendable {
        /// Bytes printed as they are.
        case literal([UInt8])
        /// A `%{name}` curl variable.
        case variable(WriteOutVariable)
        /// `%header{name}`: the final response's header of that name (repeated ones joined by ", ").
        case header(String)
        /// `%{stderr}`: what follows goes to standard error.
        case toStandardError
        /// `%{stdout}`: what follows goes to standard output (the start).
        case toStandardOutput
        /// `%{onerror}` (curl 7.75): the rest of the format is printed only when the transfer failed.
        case onError
    }

    /// The pieces in order; adjacent literal bytes are joined.
    package private(set) var segments: [Segment] = []
    /// The unknown `%{name}` variables, in order, for the warning curl prints.
    package private(set) var unknownVariables: [String] = []

    /// The longest format accepted, in bytes: a format is typed or kept in a small file.
    package static let maximumLength = 64 * 1024

    /// Parses `text`; throws when it is longer than `maximumLength` bytes.
    package init(parsing text: String) throws(WriteOutError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else { throw .tooLong(limit: Self.maximumLength) }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next: UInt8? = index + 1 < bytes.count ? bytes[index + 1] : nil
            if byte == UInt8(ascii: "%"), let next {
                index = parsePercent(bytes, at: index, next: next)
            } else if byte == UInt8(ascii: "\\"), let next {
                switch next {
                case UInt8(ascii: "n"): appendLiteral([10])
                case UInt8(ascii: "r"): appendLiteral([13])
                case UInt8(ascii: "t"): appendLiteral([9])
                default: appendLiteral([byte, next])
                }
                index += 2
            } else {
                appendLiteral([byte])
                index += 1
            }
        }
    }

    /// Parses what starts with `%` at `index` (followed by `next`); returns where parsing goes on.
    private mutating func parsePercent(_ bytes: [UInt8], at index: Int, next: UInt8) -> Int {
        if next == UInt8(ascii: "%") {
            appendLiteral([next])
            return index + 2
        }
        if next == UInt8(ascii: "{") {
            let start = index + 2
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "}")) else {
                appendLiteral(Array("%{".utf8))
                return start
            }
            let name = String(decoding: bytes[start..<end], as: UTF8.self)
            // curl matches variable names without regard to ASCII case.
            let lowered = String(
                decoding: bytes[start..<end].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
            if lowered == "stderr" {
                segments.append(.toStandardError)
            } else if lowered == "stdout" {
                segments.append(.toStandardOutput)
            } else if lowered == "onerror" {
                segments.append(.onError)
            } else if let variable = WriteOutVariable(rawValue: lowered) {
                segments.append(.variable(variable))
            } else {
                unknownVariables.append(name)
            }
            return end + 1
        }
        let headerPrefix = Array("header{".utf8)
        if bytes.count - (index + 1) >= headerPrefix.count,
            Array(bytes[(index + 1)..<(index + 1 + headerPrefix.count)]) == headerPrefix
        {
            let start = index + 1 + headerPrefix.count
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "}")) else {
                appendLiteral(Array("%header{".utf8))
                return start
            }
            segments.append(.header(String(decoding: bytes[start..<end], as: UTF8.self)))
            return end + 1
        }
        appendLiteral([UInt8(ascii: "%"), next])
        return index + 2
    }

    /// Appends bytes to the last literal segment, or starts one.
    private mutating func appendLiteral(_ bytes: [UInt8]) {
        if case .literal(var existing) = segments.last {
            // Taken out and put back, so the bytes are appended in place: building a new array
            // each time copied a 64 KiB literal once per byte (quadratic).
            segments.removeLast()
            existing += bytes
            segments.append(.literal(existing))
        } else {
            segments.append(.literal(bytes))
        }
    }
}

/// A `--write-out` format that cannot be used.
package enum WriteOutError: ClassifiedError, Equatable, CustomStringConvertible {
    /// The format is longer than the limit, in bytes.
    case tooLong(limit: Int)

    /// A format that cannot be used is a bad `--write-out` value.
    package var failureClass: FailureClass { .badInput }

    package var description: String {
        switch self {
        case .tooLong(let limit): return "the --write-out format is longer than \(limit) bytes"
        }
    }
}

/// The `%{name}` variables afcli knows, by curl's names; `json` prints all of them as one object.
package enum WriteOutVariable: String, CaseIterable, Sendable {
    case contentType = "content_type"
    case errorMessage = "errormsg"
    case exitCode = "exitcode"
    case httpCode = "http_code"
    case httpVersion = "http_version"
    case localIP = "local_ip"
    case localPort = "local_port"
    case method
    case numConnects = "num_connects"
    case numHeaders = "num_headers"
    case numRedirects = "num_redirects"
    case redirectURL = "redirect_url"
    case remoteIP = "remote_ip"
    case remotePort = "remote_port"
    case responseCode = "response_code"
    case scheme
    case sizeDownload = "size_download"
    case sizeHeader = "size_header"
    case sizeRequest = "size_request"
    case sizeUpload = "size_upload"
    case speedDownload = "speed_download"
    case speedUpload = "speed_upload"
    case timeAppConnect = "time_appconnect"
    case timeConnect = "time_connect"
    case timeNameLookup = "time_namelookup"
    case timePreTransfer = "time_pretransfer"
    case timeRedirect = "time_redirect"
    case timeStartTransfer = "time_starttransfer"
    case timeTotal = "time_total"
    case url
    case urlEffective = "url_effective"
    case json
}
