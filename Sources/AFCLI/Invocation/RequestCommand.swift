import AFCurl
import AFKit

/// Runs a request command line: build, serialize, send (or print offline), print, exit status.
struct RequestCommand {
    var positionals: [String]
    var options: OptionValues
    var environment: [String: String]
    var terminal: Terminal

    /// Sends the request and prints the exchange; returns the exit status for the final response.
    func run() throws -> ExitStatus {
        let invocation = try InvocationBuilder.build(positionals: positionals, options: options)
        let prepared = try RequestSerializer.prepare(
            invocation.spec, environment: environment, acceptEncoding: HTTPClient.supportedAcceptEncoding,
            standardInput: invocation.standardInput)
        let toTerminal = options.outputFile == nil && terminal.stdoutIsTerminal
        let parts = options.resolvedPrintParts(stdoutIsTerminal: toTerminal)
        let destination: ExchangePrinter.Destination =
            if let path = options.outputFile { .file(path: path) } else if options.quiet { .discard } else { .standardOutput }
        let printer = ExchangePrinter(
            parts: parts, destination: destination, colors: toTerminal && terminal.colorsStdout,
            isTerminal: toTerminal, showsEveryHop: options.verbose, requestBody: prepared.bodyBytes)

        if options.offline {
            try printer.offline(prepared)
            try printer.finish()
            return .success
        }

        let client = HTTPClient(options: clientOptions(verbose: parts.contains(.requestHeaders)))
        let delegate = PrintingDelegate(printer: printer)
        let result = try client.send(prepared, delegate: delegate)
        try printer.metadata(elapsedSeconds: result.totalTime)
        try printer.finish()
        let status = ExitStatus.forFinalResponse(code: result.statusCode, checkStatus: options.checkStatus)
        if status != .success, !options.quiet, !toTerminal || options.outputFile != nil {
            ErrorReporter.warn("HTTP \(result.statusCode) \(result.reasonPhrase)")
        }
        return status
    }

    private func clientOptions(verbose: Bool) -> ClientOptions {
        var client = ClientOptions()
        client.follow = options.follow
        client.maxRedirects = options.maxRedirects
        client.timeout = options.timeout
        client.connectTimeout = options.connectTimeout
        client.verbose = verbose
        client.acceptEncoding = HTTPClient.supportedAcceptEncoding
        switch options.httpVersion {
        case .http1_1: client.httpVersion = .http1_1
        case .http2: client.httpVersion = .http2
        case nil: client.httpVersion = .automatic
        }
        if let proxy = options.proxy {
            client.proxy = ProxySetting(url: proxy.url, scope: proxy.scope.rawValue)
        }
        return client
    }
}

/// Forwards the client's per-hop events to the printer.
final class PrintingDelegate: HTTPClientDelegate {
    let printer: ExchangePrinter

    init(printer: ExchangePrinter) {
        self.printer = printer
    }

    func willSend(hop: Int, request: SentRequest) throws {
        try printer.requestWillBeSent(rawHead: request.rawHead, method: request.method, hop: hop)
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        try printer.responseHead(head, isFinal: isFinal)
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        try printer.responseBody(chunk, isFinal: isFinal)
    }

    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        try printer.responseEnded()
    }
}
