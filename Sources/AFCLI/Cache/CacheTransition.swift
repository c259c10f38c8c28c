import AFKit
import Glibc

/// `--cache=cj-then-network`: where the stored answer goes before the network's. On a terminal it
/// is printed as any answer, then the network's follows; otherwise standard output gets only the
/// network's answer and the stored body goes to `--cache-transition-output FILE` (or nowhere).
/// Either way the request log gets a block for it first. The stored answer goes through the same
/// decryption and envelope stages as the network's (their own instances: one answer each).
enum CacheTransition {
    /// Sets the cache's transition delegate and what happens once the stored answer was given.
    static func attach(
        to cache: ResponseCache, settings: ResolvedSettings, terminal: Terminal, log: RequestLogger?
    ) throws {
        let options = settings.options
        let toTerminal = options.output.outputFile == nil && terminal.stdoutIsTerminal
        let path = options.pipeline.cache.transitionOutput
        let printsToTerminal = toTerminal && path == nil && !options.output.quiet
        let crypto = CryptoStages(settings)
        let parts = crypto.printParts(options.resolvedPrintParts(stdoutIsTerminal: toTerminal))
        let display = ResponseDisplay(
            options: options, toTerminal: toTerminal, terminal: terminal)
        let printer = ExchangePrinter(
            parts: parts.subtracting([.requestHeaders, .requestBody, .metadata]),
            destination: printsToTerminal ? .standardOutput : .discard, colors: display.colors, isTerminal: toTerminal,
            showsEveryHop: false, requestBody: nil)
        printer.display = display
        let delegate = TransitionDelegate(printer: printer, path: path)
        // With a transition file the envelope's result goes to it, through the delegate.
        let stages = EventStages(
            receiver: ReportedExchange(delegate: delegate, printer: path == nil ? printer : nil),
            decryptCommand: settings.decryptCommand, envelope: settings.envelope)
        let recorder = stages.recorder
        recorder.keepsBodyForLog = log != nil
        cache.transitionDelegate = stages.first
        let judge = OutcomeJudge(options: options)
        cache.transitionEnded = {
            let enveloped = try stages.envelope?.conclude()
            try printer.finish()
            if printsToTerminal { try? FileDescriptorIO.writeAll(STDOUT_FILENO, "\n") }
            delegate.closeFile()
            var outcome = recorder.recorded
            outcome.envelope = enveloped
            guard let log, let statusCode = outcome.statusCode else { return }
            log.respondedFromCache(statusCode: statusCode, accepted: judge.accepts(outcome), body: recorder.loggedBody)
        }
    }
}

/// The stored answer's events: to a printer (the terminal, or nowhere) and its body to
/// the transition file when one was given. The file is opened (0600, never through a link) only
/// when there is a stored answer, before anything is sent: without one it is left alone. `-` is
/// standard output, which then does not carry the network's answer (`RequestCommand.claimStandardOutput`).
final class TransitionDelegate: HTTPClientDelegate {
    private let printing: PrintingDelegate
    private let path: String?
    private var fileDescriptor: Int32 = -1

    init(printer: ExchangePrinter, path: String?) {
        printing = PrintingDelegate(printer: printer)
        self.path = path
    }

    deinit { closeFile() }

    func closeFile() {
        // `-` is standard output, which stays open for the network's answer and -w.
        if fileDescriptor > STDERR_FILENO { close(fileDescriptor) }
        fileDescriptor = -1
    }

    func willSend(hop: Int, request: SentRequest) throws {}

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        if StandardStreams.isStandardOutput(path) {
            fileDescriptor = STDOUT_FILENO
        } else if let path, fileDescriptor < 0 {
            do {
                fileDescriptor = try FileIO.openOwnedRegularFile(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
            } catch {
                throw CacheUsageError(description: "cannot open the transition output: \(error)")
            }
        }
        try printing.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        if fileDescriptor >= 0 {
            do {
                try FileDescriptorIO.writeAll(fileDescriptor, chunk)
            } catch {
                let target = fileDescriptor == STDOUT_FILENO ? "standard output" : path ?? ""
                throw OutputStream.WriteError(
                    target: target, code: error.code,
                    reason: StandardStreams.closedReason(descriptor: fileDescriptor, code: error.code))
            }
        }
        if printing.needsMoreFinalBody() { try printing.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal) }
    }

    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        try printing.didFinishResponse(hop: hop, isFinal: isFinal)
    }

    func needsMoreFinalBody() -> Bool { path != nil || printing.needsMoreFinalBody() }
}
