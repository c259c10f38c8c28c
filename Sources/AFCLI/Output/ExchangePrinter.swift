import AFCurl
import AFKit
import Glibc

/// Prints an exchange as it happens: request heads as sent, response heads and bodies as they
/// arrive, streamed to standard output or to the `--output` file, never held whole in memory.
///
/// Layout follows HTTPie: each head ends with a blank line, a request body is followed by two line
/// feeds when more follows, and a terminal gets a final line feed after a body that lacks one.
final class ExchangePrinter {
    private let parts: OptionValues.PrintParts
    private let formatter: MessageFormatter
    private let destination: Destination
    private let isTerminal: Bool
    private let showsEveryHop: Bool
    private var currentHopShown = true
    private var stream: OutputStream?
    private var requestBody: [UInt8]?
    private var bodyIsBinary = false
    private var sawBodyByte = false
    private var lastByte: UInt8 = 10
    private var printedAnything = false
    private var pendingSeparator = ""
    private var lastStatus = 0

    /// Where the printed exchange goes.
    enum Destination {
        case standardOutput
        case discard
        /// A file, created (or truncated) only when the first byte is written.
        case file(path: String)
    }

    /// A printer for the given parts; `colors` and `isTerminal` describe the destination;
    /// `showsEveryHop` prints redirects that are followed too (`--verbose`), else only the final
    /// exchange is shown.
    init(
        parts: OptionValues.PrintParts, destination: Destination, colors: Bool, isTerminal: Bool,
        showsEveryHop: Bool, requestBody: [UInt8]?
    ) {
        self.parts = parts
        self.showsEveryHop = showsEveryHop
        self.destination = destination
        self.formatter = MessageFormatter(palette: Palette(enabled: colors))
        self.isTerminal = isTerminal
        self.requestBody = requestBody
    }

    /// Whether anything about the response body is printed (else it can be discarded unread).
    var printsResponseBody: Bool { parts.contains(.responseBody) }

    /// Prints a request head and (if asked) its body, before the request is sent.
    func requestWillBeSent(rawHead: String?, method: String, hop: Int) throws {
        if parts.contains(.requestHeaders), let rawHead {
            try emit(pendingSeparator + formatter.requestHead(raw: rawHead))
            pendingSeparator = ""
        }
        // A body is resent only on the first hop and after 307/308 (HTTPClient drops it otherwise).
        let carriesBody = hop == 0 || lastStatus == 307 || lastStatus == 308
        if parts.contains(.requestBody), carriesBody, let body = requestBody, !body.isEmpty {
            try emit(pendingSeparator)
            try emit(body)
            pendingSeparator = body.last == 10 ? "\n" : "\n\n"
        }
    }

    /// Prints a request that is not sent (`--offline`), streaming a body that is not in memory.
    func offline(_ request: PreparedRequest) throws {
        if parts.contains(.requestHeaders) { try emit(formatter.offlineRequestHead(request)) }
        guard parts.contains(.requestBody), let body = request.body else { return }
        if let bytes = request.bodyBytes {
            try emit(bytes)
            return
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try body.read(into: $0) }
            if count == 0 { break }
            try emit(Array(chunk[0..<count]))
        }
    }

    /// Prints a response head.
    func responseHead(_ head: ResponseHead, isFinal: Bool) throws {
        lastStatus = head.statusCode
        bodyIsBinary = false
        sawBodyByte = false
        currentHopShown = isFinal || showsEveryHop
        guard currentHopShown else { return }
        if parts.contains(.responseHeaders) {
            try emit(pendingSeparator + formatter.responseHead(head))
            pendingSeparator = ""
        }
        if isTerminal, parts.contains(.responseBody), let type = head.value(for: "Content-Type") {
            bodyIsBinary = Self.isBinaryMediaType(type)
        }
    }

    /// Prints a chunk of a response body.
    func responseBody(_ chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        guard currentHopShown, parts.contains(.responseBody), !chunk.isEmpty else { return }
        if isTerminal, !bodyIsBinary, chunk.contains(0) { bodyIsBinary = true }
        if bodyIsBinary {
            if !sawBodyByte { try emit(pendingSeparator + Self.binaryNotice) }
            sawBodyByte = true
            pendingSeparator = ""
            return
        }
        if !pendingSeparator.isEmpty {
            try emit(pendingSeparator)
            pendingSeparator = ""
        }
        sawBodyByte = true
        try emitRaw(chunk)
        lastByte = chunk[chunk.count - 1]
    }

    /// Ends a response body: on a terminal, a body is followed by a line feed if it lacks one.
    func responseEnded() throws {
        guard currentHopShown, sawBodyByte, !bodyIsBinary else { return }
        if isTerminal, lastByte != 10 {
            try emit("\n")
            lastByte = 10
        }
        pendingSeparator = lastByte == 10 ? "\n" : "\n\n"
    }

    /// Prints response metadata (`m`): the elapsed time.
    func metadata(elapsedSeconds: Double) throws {
        guard parts.contains(.metadata) else { return }
        try emit(printedAnything ? pendingSeparator : "")
        let millis = Int((elapsedSeconds * 1_000_000).rounded())
        let fraction = String(millis % 1_000_000)
        let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
        try emit("Elapsed time: \(millis / 1_000_000).\(padded)s\n")
    }

    /// Writes out whatever is buffered.
    func finish() throws {
        try stream?.flush()
    }

    static let binaryNotice = """
        +-----------------------------------------+
        | NOTE: binary data not shown in terminal |
        +-----------------------------------------+

        """

    /// Media types that are not text (HTTPie shows a notice instead of them on a terminal).
    static func isBinaryMediaType(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t").lowercased() } ?? ""
        if type.hasPrefix("text/") || type.hasSuffix("+json") || type.hasSuffix("+xml") { return false }
        let textual: Set<String> = [
            "application/json", "application/xml", "application/javascript", "application/x-www-form-urlencoded",
            "application/x-plist", "application/problem+json", "application/x-ndjson", "application/ld+json",
        ]
        if textual.contains(type) { return false }
        return type.hasPrefix("image/") || type.hasPrefix("audio/") || type.hasPrefix("video/")
            || type == "application/octet-stream" || type == "application/zip" || type == "application/pdf"
            || type == "application/gzip"
    }

    private func emit(_ text: String) throws {
        guard !text.isEmpty else { return }
        try output()?.write(text)
    }

    private func emit(_ bytes: [UInt8]) throws {
        try output()?.write(bytes)
    }

    private func emitRaw(_ bytes: UnsafeRawBufferPointer) throws {
        try output()?.write(bytes)
    }

    private func output() throws -> OutputStream? {
        if let stream { return stream }
        switch destination {
        case .discard:
            return nil
        case .standardOutput:
            stream = OutputStream(descriptor: STDOUT_FILENO, target: "standard output")
        case .file(let path):
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw OutputStream.WriteError(target: "\"\(path)\"", code: errno) }
            stream = OutputStream(descriptor: descriptor, target: "\"\(path)\"", closesOnDeinit: true)
        }
        printedAnything = true
        return stream
    }
}

extension StringProtocol {
    /// The text without the given characters at either end.
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
