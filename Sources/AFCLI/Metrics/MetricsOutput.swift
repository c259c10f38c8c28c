import AFKit
import Glibc

/// Prints a request's metrics where the options ask for them: the `m` part of the exchange
/// (table or JSON), the `--meta=json` line on standard error, and the `--write-out` text.
///
/// Made before anything else reads standard input, because `--write-out @-` reads its format
/// from there (as curl's does); a format that cannot be read or is too long is a usage error and
/// nothing is sent.
struct MetricsOutput {
    /// The parsed `--write-out` format, if any.
    let writeOut: WriteOutFormat?
    /// `--meta`.
    let format: Settings.MetaFormat
    /// Whether warnings are shown (not under `--quiet`).
    let warns: Bool
    /// Whether `--print` names the m part (not only implied by `--verbose`).
    let asksForMetadata: Bool

    /// Whether standard output is a terminal, where values from the server are shown escaped.
    let toTerminal: Bool

    /// Reads and parses `--write-out` and reports its unknown variables, as curl does.
    init(options: Settings, stdoutIsTerminal: Bool) throws {
        toTerminal = stdoutIsTerminal
        format = options.output.metaFormat
        warns = !options.output.quiet
        asksForMetadata = options.output.printParts?.contains(.metadata) == true
        guard let text = options.output.writeOut else {
            writeOut = nil
            return
        }
        let source = try Self.formatText(text)
        do {
            writeOut = try WriteOutFormat(parsing: source)
        } catch {
            throw UsageError.invalidValue(
                option: "--write-out", value: Self.shown(text),
                reason: "is longer than \(WriteOutFormat.maximumLength) bytes")
        }
        if warns {
            for name in writeOut?.unknownVariables ?? [] {
                ErrorReporter.warn("unknown --write-out variable: '\(name.escapingTerminalControls)'")
            }
        }
    }

    /// The format itself, or the contents of `@FILE` / `@-`.
    private static func formatText(_ text: String) throws -> String {
        guard text.hasPrefix("@") else { return text }
        let path = String(text.dropFirst())
        let limit = WriteOutFormat.maximumLength
        let tooLong = "is longer than \(limit) bytes"
        if path == "-" {
            do {
                let bytes = try FileDescriptorIO.readAll(STDIN_FILENO, limit: limit, stopsOnInterrupt: true)
                return String(decoding: bytes, as: UTF8.self)
            } catch {
                // Ctrl-C while standard input was read is an interrupt, not an unreadable format.
                if error.code == EINTR { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
                let reason = error.code == EFBIG ? tooLong : "cannot be read: \(error.description)"
                throw UsageError.invalidValue(option: "--write-out", value: text, reason: reason)
            }
        }
        do {
            return String(decoding: try SmallFile.read(path, limit: limit, tooLarge: tooLong), as: UTF8.self)
        } catch {
            let reason = error.reason == tooLong ? tooLong : "cannot be read: \(error.reason)"
            throw UsageError.invalidValue(option: "--write-out", value: shown(text), reason: reason)
        }
    }

    /// A long value shortened for the error message.
    private static func shown(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// Whether the metrics were asked for by name, so the body must be read to its end (as curl
    /// reads it) even when none of it is printed: sizes, speeds and `time_total` then describe
    /// the whole transfer. `--verbose` alone does not: it still stops at the binary notice, and
    /// its table describes what was transferred.
    var measuresWholeBody: Bool { writeOut != nil || format == .json || asksForMetadata }

    /// The `m` part: the elapsed time and protocol lines HTTPie prints, then the metrics table
    /// (one block per hop when `everyHop`), or with `--meta=json` the JSON object alone.
    func metadataBlock(_ result: HTTPClientResult, colors: SyntaxColors, everyHop: Bool) -> String {
        let metrics = TaskMetrics(transactions: result.hopMetrics)
        if format == .json, let metrics { return metrics.jsonText + "\n" }
        var text = "Elapsed time: \(DecimalText.fixed(result.totalTime))s\n"
        if !result.head.httpVersion.isEmpty {
            text += "Protocol: \(result.head.httpVersion.escapingTerminalControls)\n"
        }
        if let metrics {
            text += MetricsReport(colors: colors).text(for: metrics, everyHop: everyHop)
        }
        return text
    }

    /// After a response: `--meta=json` on standard error when the `m` part did not show it, then
    /// the `--write-out` text for the exit status the command ends with. `bodyBytes` is the body
    /// written, which `size_download` counts when no transfer took place (a cache hit, `--local`).
    func finished(
        _ result: HTTPClientResult, request: PreparedRequest, printsMetadata: Bool, status: ExitStatus, bodyBytes: Int
    ) throws {
        let metrics = TaskMetrics(transactions: result.hopMetrics)
        if format == .json, !printsMetadata, let metrics {
            StandardError.write(metrics.jsonText + "\n")
        }
        guard let writeOut else { return }
        var context = WriteOutContext(
            metrics: metrics, url: request.url, method: request.method, head: result.head,
            exitCode: Int(status.rawValue), redirectURL: result.outcome.redirectURL)
        // No transfer, no bytes received from the network (AF's count for a localCache load is 0):
        // curl's size_download is then the body written.
        if metrics == nil || result.hopMetrics.last?.answeredFromCache == true {
            context.metrics.bodyBytesReceived = Int64(bodyBytes)
        }
        try Self.write(render(writeOut, context))
    }

    /// After a failed transfer: the `--write-out` text with no response, afcli's exit status and
    /// its error message, and libcurl's times up to the failure when it got that far (curl prints
    /// `-w` for a failed transfer too).
    func failed(_ error: any Error, request: PreparedRequest) {
        guard let writeOut, !Interruption.isInterrupted else { return }
        let (status, message, _) = ErrorReporter.classify(error)
        let metrics = ((error as? CurlError)?.metrics).flatMap { TaskMetrics(transactions: [$0]) }
        let context = WriteOutContext(
            metrics: metrics, url: request.url, method: request.method, head: nil, exitCode: Int(status.rawValue),
            errorMessage: message)
        try? Self.write(render(writeOut, context))
    }

    /// The `--write-out` text, with values escaped for whichever stream is a terminal.
    private func render(_ format: WriteOutFormat, _ context: WriteOutContext) -> [WriteOutFormatter.Chunk] {
        WriteOutFormatter.render(
            format, context, escapesControls: toTerminal, escapesStandardErrorControls: isatty(STDERR_FILENO) == 1)
    }

    /// Writes the chunks to standard output or standard error, in order.
    private static func write(_ chunks: [WriteOutFormatter.Chunk]) throws {
        let output = OutputStream(descriptor: STDOUT_FILENO, target: "standard output")
        for chunk in chunks {
            if chunk.toStandardError {
                try output.flush()
                chunk.bytes.withUnsafeBytes { try? FileDescriptorIO.writeAll(STDERR_FILENO, $0) }
            } else {
                try output.write(chunk.bytes)
            }
        }
        try output.flush()
    }
}
