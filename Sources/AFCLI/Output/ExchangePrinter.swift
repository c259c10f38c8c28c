import AFKit
import Glibc

/// Prints an exchange as it happens: request heads as sent, response heads and bodies as they
/// arrive, streamed to standard output or to the `--output` file, never held whole in memory.
///
/// Layout follows HTTPie: each head ends with a blank line, a request body is followed by two line
/// feeds when more follows, and a terminal gets a final line feed after a body that lacks one.
final class ExchangePrinter {
    private let parts: Settings.PrintParts
    private let formatter: MessageFormatter
    private let destination: Destination
    private let isTerminal: Bool
    private let showsEveryHop: Bool
    private var currentHopShown = true
    private var stream: OutputStream?
    private var requestBody: [UInt8]?
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

        /// Whether everything is thrown away (`--quiet`).
        var isDiscard: Bool {
            if case .discard = self { return true }
            return false
        }
    }

    /// A printer for the given parts; `colors` and `isTerminal` describe the destination;
    /// `showsEveryHop` prints redirects that are followed too (`--verbose`), else only the final
    /// exchange is shown.
    init(
        parts: Settings.PrintParts, destination: Destination, colors: Bool, isTerminal: Bool,
        showsEveryHop: Bool, requestBody: [UInt8]?
    ) {
        self.parts = parts
        self.showsEveryHop = showsEveryHop
        self.destination = destination
        self.formatter = MessageFormatter(palette: Palette(enabled: colors))
        self.isTerminal = isTerminal
        self.requestBody = requestBody
    }

    var printsResponseHeaders: Bool { parts.contains(.responseHeaders) }

    /// Whether more of the final response's body would be printed: false with `-h` (no `b` in
    /// `--print`), `--quiet`, or once the binary notice stands in for the body.
    var needsMoreFinalBody: Bool {
        guard let renderer else { return false }
        return renderer.wantsMoreInput
    }

    /// How response bodies are shown (formatting, colours, streaming); exact bytes by default.
    var display = ResponseDisplay()
    /// Whether request bodies go out chunked even when their length is known (`--chunked`), so
    /// that the `--offline` head says what would be sent.
    var sendsChunked = false
    /// The Content-Type the final body is shown as when a stage changed what it is (decrypted: text
    /// sniffed for JSON; an envelope's result: JSON); nil for the response's own.
    var finalBodyContentType: String?
    /// How the current response's body is being shown.
    private var renderer: ResponseBodyRenderer?
    /// The final head's coding afcli cannot decode, still to be warned about when its body's
    /// first byte passes through (a HEAD, 204 or 304 passes nothing, and gets no warning).
    private var unwarnedKeptCoding: KeptCoding?

    /// A multipart body streamed from files or standard input (not in `requestBody`), printed part
    /// by part from a second reading: file contents as placeholders on a terminal, in full otherwise;
    /// a part from standard input, which is read once for the wire, always as a placeholder.
    var multipartForm: MultipartFormData?

    /// Prints a request head and (if asked) its body, before the request is sent.
    func requestWillBeSent(rawHead: String?, method: String, hop: Int) throws {
        if parts.contains(.requestHeaders), let rawHead {
            try emit(pendingSeparator + formatter.requestHead(raw: rawHead))
            pendingSeparator = ""
        }
        // A body is resent only on the first hop and after 307/308 (HTTPClient drops it otherwise).
        let carriesBody = hop == 0 || lastStatus == 307 || lastStatus == 308
        if parts.contains(.requestBody), carriesBody, let form = multipartForm {
            try emit(pendingSeparator)
            let preview = form.makeBodySource(rendering: .preview(showsFileContents: !isTerminal))
            let endsInLineFeed = try emitStreamed(preview)
            pendingSeparator = endsInLineFeed ? "\n" : "\n\n"
        } else if parts.contains(.requestBody), carriesBody, let sent = requestBody, !sent.isEmpty {
            let body = shownRequestBody(sent)
            try emit(pendingSeparator)
            try emit(body)
            pendingSeparator = body.last == 10 ? "\n" : "\n\n"
        }
    }

    /// Prints a request that is not sent (`--offline`), streaming a body that is not in memory.
    func offline(_ request: PreparedRequest) throws {
        if parts.contains(.requestHeaders) { try emit(formatter.offlineRequestHead(request, chunked: sendsChunked)) }
        guard parts.contains(.requestBody), let body = request.body else { return }
        if let bytes = request.bodyBytes {
            try emit(shownRequestBody(bytes))
            return
        }
        // A terminal gets placeholders instead of file contents; a pipe or file the exact body.
        if isTerminal, let multipart = request.builtBody as? MultipartBodySource {
            try emitStreamed(multipart.form.makeBodySource(rendering: .preview(showsFileContents: false)))
            return
        }
        try emitStreamed(body)
    }

    /// Streams a body that is not in memory to the output; returns whether it ended in a line feed.
    @discardableResult
    private func emitStreamed(_ body: BodySource) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var last: UInt8?
        while true {
            let count = try chunk.withUnsafeMutableBytes { try body.read(into: $0) }
            if count == 0 { break }
            try chunk.withUnsafeBytes { try emitRaw(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            last = chunk[count - 1]
        }
        return last == 10
    }

    /// Prints a response head, and chooses how its body will be shown.
    func responseHead(_ head: ResponseHead, isFinal: Bool) throws {
        lastStatus = head.statusCode
        sawBodyByte = false
        renderer = nil
        currentHopShown = isFinal || showsEveryHop
        guard currentHopShown else { return }
        if parts.contains(.responseHeaders) {
            try emit(pendingSeparator + formatter.responseHead(isTerminal ? Self.escapingControls(head) : head))
            pendingSeparator = ""
            // The head is shown when it arrives, not when a slow body has ended.
            try stream?.flush()
        }
        if isFinal { unwarnedKeptCoding = display.quiet ? nil : head.keptCoding }
        if parts.contains(.responseBody), !destination.isDiscard {
            // A body still in a coding afcli could not decode is opaque bytes, whatever its type.
            let served = head.keptCoding == nil ? head.value(for: "Content-Type") : "application/octet-stream"
            let contentType = (isFinal ? finalBodyContentType : nil) ?? served
            renderer = ResponseBodyRenderer(contentType: contentType, display: display, sink: PrinterBodySink(printer: self))
        }
    }

    /// Prints a chunk of a response body.
    func responseBody(_ chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        if isFinal { try passFinalBody(chunk) }
        try renderBody(chunk)
    }

    /// Notes a chunk of the final body passing, printed or not (`--envelope` prints only the
    /// result, later): its first byte brings the warning about a coding passed through as received.
    func passFinalBody(_ chunk: UnsafeRawBufferPointer) throws {
        if let kept = unwarnedKeptCoding, !chunk.isEmpty {
            unwarnedKeptCoding = nil
            // The head already shown comes before the warning.
            try stream?.flush()
            ErrorReporter.warn(
                "\(kept.field) \(kept.coding) is not a coding afcli can decode: the body is passed on as received")
        }
    }

    /// Shows a chunk of the current response's body.
    func renderBody(_ chunk: UnsafeRawBufferPointer) throws {
        guard currentHopShown, let renderer, !chunk.isEmpty else { return }
        try renderer.consume(chunk)
        // `--stream`, event streams and NDJSON are written as they come, not in large blocks.
        if renderer.streams { try stream?.flush() }
    }

    /// Ends a response body: formatters finish, on a terminal a body is followed by a line feed
    /// if it lacks one, and then the formatter's warnings go to standard error (none under
    /// `--quiet`), so that a warning never continues the body's last line.
    func responseEnded() throws {
        guard currentHopShown, let renderer else { return }
        self.renderer = nil
        try renderer.finish()
        try endBody(warnings: renderer.warnings)
    }

    /// The transfer failed part-way: what was formatted is written, then what the formatter held
    /// back as received, so nothing received is lost. When interrupted nothing more is formatted;
    /// what was shown ends its line on a terminal, so the error line starts one of its own.
    func transferFailed(_ error: any Error) throws {
        defer { renderer = nil }
        if Interruption.isInterrupted {
            if sawBodyByte, isTerminal, lastByte != 10 { try emit("\n") }
            try stream?.flush()
            return
        }
        guard currentHopShown, let renderer else {
            try stream?.flush()
            return
        }
        try renderer.abandon()
        try endBody(warnings: [])
        try stream?.flush()
    }

    /// Ends the body's last line on a terminal and shows `warnings`.
    private func endBody(warnings: [String]) throws {
        if sawBodyByte, isTerminal, lastByte != 10 {
            try emit("\n")
            lastByte = 10
        }
        if !warnings.isEmpty, !display.quiet {
            try stream?.flush()
            for warning in warnings { ErrorReporter.warn(warning) }
        }
        guard sawBodyByte else { return }
        pendingSeparator = lastByte == 10 ? "\n" : "\n\n"
    }

    /// The head with control characters in the reason phrase and header fields shown escaped,
    /// for a terminal (a server's `ESC ] 0 ;` would otherwise retitle the window).
    private static func escapingControls(_ head: ResponseHead) -> ResponseHead {
        ResponseHead(
            statusCode: head.statusCode, reasonPhrase: head.reasonPhrase.escapingTerminalControls,
            httpVersion: head.httpVersion,
            headers: head.headers.map { ($0.name.escapingTerminalControls, $0.value.escapingTerminalControls) },
            keptCoding: head.keptCoding)
    }

    /// Writes formatted body output: the separator from what came before first, then the bytes.
    fileprivate func emitBody(_ bytes: UnsafeRawBufferPointer) throws {
        guard let last = bytes.last else { return }
        if !pendingSeparator.isEmpty {
            try emit(pendingSeparator)
            pendingSeparator = ""
        }
        sawBodyByte = true
        try emitRaw(bytes)
        lastByte = last
    }

    /// Prints response metadata (`m`): `block` (the elapsed time, protocol and metrics table, see
    /// MetricsOutput), then what the response cache did, after the separator from what came before.
    func metadata(_ block: @autoclosure () -> String) throws {
        guard parts.contains(.metadata) else { return try cacheLine() }
        try emit(printedAnything ? pendingSeparator : "")
        try emit(block())
        if let cacheStatus { try emit("cache: \(cacheStatus)\n") }
    }

    /// What the response cache did (`cache: hit, age 12 s`), shown with `m` and with `--verbose`.
    var cacheStatus: String?

    /// `--verbose` without `m`: the cache line alone after the exchange.
    private func cacheLine() throws {
        guard showsEveryHop, let cacheStatus else { return }
        try emit((printedAnything ? pendingSeparator : "") + "cache: \(cacheStatus)\n")
    }

    /// Writes out whatever is buffered.
    func finish() throws {
        try stream?.flush()
    }

    /// A request body as printed: on a terminal, binary bytes (a `--compress`ed body) become the
    /// binary notice, as a binary response does; a pipe or file gets the exact bytes.
    private func shownRequestBody(_ body: [UInt8]) -> [UInt8] {
        guard isTerminal, body.contains(0) || String(validating: body, as: UTF8.self) == nil else { return body }
        return Array(Self.binaryNotice.utf8)
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
            // A link someone else planted at the name (in /tmp, say) must not redirect the output
            // onto a file of the user's; the user's own links and the system's (/dev/stdout) are
            // followed as a shell's `>` would.
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, info.st_uid != geteuid(), info.st_uid != 0 {
                throw OutputStream.WriteError(
                    target: "\"\(path)\"", code: ELOOP, reason: "it is a symbolic link owned by another user")
            }
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

/// Hands formatted body output back to the printer, which owns the output stream.
private final class PrinterBodySink: ByteSink {
    unowned let printer: ExchangePrinter

    init(printer: ExchangePrinter) {
        self.printer = printer
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try printer.emitBody(bytes)
    }
}
