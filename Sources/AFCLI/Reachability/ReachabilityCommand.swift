import AFKit
import Glibc

/// Runs `afcli reachability [TARGET]`: AF's reachability answered the Linux way (a route lookup
/// that sends nothing), with `--probe` for an active connect, `--watch` for changes and `--json`.
///
/// Exit status: 0 reachable, 1 not reachable (or a failed `--probe`), 2 bad input; `--watch`
/// runs until interrupted and exits with 130.
struct ReachabilityCommand {
    var positionals: [String]
    var options: Settings

    /// Evaluates (or watches) the target and prints the answer.
    func run() throws -> ExitStatus {
        let target = try ReachabilityTarget.parse(positionals.dropFirst().first)
        if options.reachability.probe, target == .anyRoute { throw ReachabilityError.probeNeedsHost }
        let tls = try probeTLS(for: target)
        let evaluator = ReachabilityEvaluator(resolveEntries: options.tls.resolve)
        let printer = ReachabilityPrinter(
            stream: OutputStream(descriptor: STDOUT_FILENO, target: "standard output"),
            json: options.request.encoding == .json)

        if options.reachability.watch {
            Interruption.install()
            let monitor = ReachabilityMonitor(target: target, evaluator: evaluator)
            try monitor.watch(
                { previous, report in
                    var report = report
                    if options.reachability.probe {
                        report.probe = ReachabilityProbe.run(report, tls: tls, connectTimeout: timeout)
                    }
                    try printer.change(from: previous, to: report, source: monitor.changeSource)
                },
                shouldStop: { Interruption.isInterrupted })
            return .interrupted
        }

        var report = evaluator.evaluate(target)
        if options.reachability.probe {
            report.probe = ReachabilityProbe.run(report, tls: tls, connectTimeout: timeout)
        }
        try printer.report(report)
        let probeFailed = report.probe.map { !$0.succeeded } ?? false
        return report.status == .reachable && !probeFailed ? .success : .failure
    }

    /// Seconds a probe may take to connect.
    private var timeout: Double? { options.transfer.connectTimeout ?? options.transfer.timeout }

    /// The TLS settings of the probe's handshake: the request options' (`--verify`, pins…).
    private func probeTLS(for target: ReachabilityTarget) throws -> TLSOptions {
        guard case .host(let name, let port, let usesTLS) = target, usesTLS else {
            return try SecurityOptions.policy(from: options).tlsOptions
        }
        let host = name.contains(":") ? "[\(name)]" : name
        return try SecurityOptions.tlsOptions(options, forURL: "https://\(host):\(port)/")
    }
}
