import AFKit

/// The counts of a run and how they are shown on stderr: a live line while it runs (only when
/// stderr is a terminal) and a summary at the end.
struct RunStatusLine {
    /// Requests in the batch.
    let total: Int
    /// Whether stderr is a terminal, so the live line may be drawn and redrawn.
    let isLive: Bool
    /// When the run started (monotonic seconds).
    let startedAt: Double

    /// Requests that succeeded and failed so far, and those in flight.
    private(set) var succeeded = 0
    private(set) var failed = 0
    var running = 0
    /// Whether the live line is on screen, so other stderr text clears it first.
    private var lineShown = false
    /// When the live line was last drawn.
    private var drawnAt = 0.0

    /// The columns of the terminal the line is drawn on, asked at every redraw (a resized pane is
    /// followed); nil when unknown.
    private let columns: () -> Int?

    init(total: Int, isLive: Bool, startedAt: Double, columns: @escaping () -> Int? = TerminalWidth.standardError) {
        self.total = total
        self.isLive = isLive
        self.startedAt = startedAt
        self.columns = columns
    }

    /// Counts one finished request.
    mutating func count(succeeded: Bool) {
        if succeeded { self.succeeded += 1 } else { failed += 1 }
    }

    /// Requests finished, successfully or not.
    var done: Int { succeeded + failed }

    /// Redraws the live line: at once when it is not shown (or `force`), else at most ten times a
    /// second.
    mutating func draw(now: Double, force: Bool = false) {
        guard isLive, force || !lineShown || now - drawnAt >= 0.1 else { return }
        drawnAt = now
        // One cell is left free: a line that fills the last column wraps on some terminals.
        let width = (columns() ?? TerminalWidth.fallback) - 1
        StandardError.write("\r\u{1B}[K" + line(now: now, width: width))
        lineShown = true
    }

    /// The live line in at most `width` columns: a line wider than the terminal wraps, and each
    /// `\r` redraw would then leave a line behind. The parts at its end (rate, running, failed)
    /// are left out first; what is left is cut.
    func line(now: Double, width: Int) -> String {
        var parts = [
            "run: \(done)/\(total) done", "\(failed) failed", "\(running) running",
            "\(RunStatusLine.decimal(rate(elapsed: now - startedAt), digits: 1))/s",
        ]
        var text = parts.joined(separator: ", ")
        while text.utf8.count > width, parts.count > 1 {
            parts.removeLast()
            text = parts.joined(separator: ", ")
        }
        return String(text.prefix(max(0, width)))
    }

    /// Removes the live line so that a message can be written on stderr in its place.
    mutating func clear() {
        guard lineShown else { return }
        StandardError.write("\r\u{1B}[K")
        lineShown = false
    }

    /// The one-line summary: `run: 10 requests, 9 succeeded, 1 failed, 0 not started in 1.2 s (8.3/s)`.
    func summary(notStarted: Int, now: Double, interrupted: Bool) -> String {
        let elapsed = now - startedAt
        var text = "run: \(total) request\(total == 1 ? "" : "s"), \(succeeded) succeeded, \(failed) failed, "
        text += "\(notStarted) not started"
        let seconds = RunStatusLine.decimal(elapsed, digits: 2)
        text += " in \(seconds) s (\(RunStatusLine.decimal(rate(elapsed: elapsed), digits: 1))/s)"
        if interrupted { text += ", interrupted" }
        return text
    }

    /// Finished requests per second.
    private func rate(elapsed: Double) -> Double {
        elapsed > 0 ? Double(done) / elapsed : 0
    }

    /// `value` with `digits` decimals, without Foundation's formatters.
    static func decimal(_ value: Double, digits: Int) -> String {
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((max(0, value) * Double(scale)).rounded())
        guard digits > 0 else { return String(scaled) }
        let fraction = String(scaled % scale)
        return "\(scaled / scale).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }
}
