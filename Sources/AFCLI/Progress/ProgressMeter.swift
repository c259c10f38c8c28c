import Glibc

/// How transfer progress is shown on standard error (`--progress`).
package enum ProgressStyle: String, CaseIterable, Equatable, Sendable {
    /// A bar when standard error is a terminal, nothing otherwise (the default).
    case auto
    /// A bar redrawn in place with `\r`: bytes done, percent, rate and time left.
    case bar
    /// One `37%` line per new whole percent, CJNetwork's upload progress, for scripts.
    case percent
    /// Nothing at all.
    case none
}

/// A progress display for one transfer, written to standard error.
///
/// The caller reports how far the transfer is with `update(done:)` as often as it likes; the bar
/// is redrawn at most `redrawInterval` apart on one line (`\r`), fitted into the terminal's width
/// (`ProgressLine`) and padded so a shorter line wipes a longer one, and `finish()` or `fail()`
/// ends that line so later messages start on a fresh one.
/// `done` always counts from the start of the whole resource, so a resumed transfer passes the
/// bytes it already had as `alreadyDone` and its rate and time left count only the new bytes.
package final class ProgressMeter {
    /// What this meter draws once `auto` is resolved.
    enum Mode: Equatable {
        case bar
        case percent
        case silent
    }

    /// The fewest seconds between two redraws of the bar (about ten a second).
    static let redrawInterval = 0.1
    /// How far back the rate looks, in seconds, so it follows changes in speed.
    static let rateWindow = 5.0

    /// What is drawn.
    let mode: Mode
    /// The text before the bar (a file name, `upload`), cut to `labelWidth` characters.
    private let label: String
    /// The number of bytes the whole transfer has, when known; it may be learnt after creation.
    package var total: Int64?
    /// Bytes that were done before this meter started (a resumed download).
    private let alreadyDone: Int64
    /// Seconds on a monotonic clock.
    private let clock: () -> Double
    /// Where finished text goes (standard error).
    private let output: (String) -> Void
    /// The terminal's width in columns, asked at every redraw; nil when unknown.
    private let columns: () -> Int?
    /// When the meter was created.
    private let startTime: Double
    /// The latest `done` reported.
    private var done: Int64
    /// When the bar was last drawn; nil before the first draw.
    private var lastDrawTime: Double?
    /// The width of the last line drawn, so a shorter one can blank out the rest.
    private var lastLineWidth = 0
    /// The last whole percent printed in `percent` mode (or before this meter, by the meter of
    /// an earlier sending or attempt of the same transfer: percent lines never go back).
    private(set) var lastPercent: Int
    /// Recent (time, done) samples for the rate, oldest first.
    private var samples: [(time: Double, done: Int64)] = []
    /// Whether `finish()` or `fail()` ran.
    private var ended = false

    /// A meter for a transfer of `total` bytes (nil when unknown) that starts at `alreadyDone`.
    ///
    /// `auto` draws a bar only when standard error is a terminal and nothing otherwise.
    /// `percentPrinted` is the last percent line an earlier meter of the same transfer printed.
    package convenience init(
        style: ProgressStyle, stderrIsTerminal: Bool, label: String, total: Int64?, alreadyDone: Int64 = 0,
        percentPrinted: Int = -1
    ) {
        self.init(
            mode: Self.mode(for: style, stderrIsTerminal: stderrIsTerminal), label: label, total: total,
            alreadyDone: alreadyDone, clock: Self.monotonicSeconds, output: StandardError.write,
            columns: TerminalWidth.standardError, percentPrinted: percentPrinted)
    }

    /// A meter with an explicit clock and output, for tests.
    init(
        mode: Mode, label: String, total: Int64?, alreadyDone: Int64 = 0, clock: @escaping () -> Double,
        output: @escaping (String) -> Void, columns: @escaping () -> Int? = { nil }, percentPrinted: Int = -1
    ) {
        self.mode = mode
        self.label = Self.fitted(label)
        self.total = total
        self.alreadyDone = alreadyDone
        self.clock = clock
        self.output = output
        self.columns = columns
        self.lastPercent = percentPrinted
        self.startTime = clock()
        self.done = alreadyDone
        samples.append((startTime, alreadyDone))
    }

    /// What `style` draws given where standard error goes.
    static func mode(for style: ProgressStyle, stderrIsTerminal: Bool) -> Mode {
        switch style {
        case .auto: return stderrIsTerminal ? .bar : .silent
        case .bar: return .bar
        case .percent: return .percent
        case .none: return .silent
        }
    }

    /// Records that `done` bytes of the whole are done, redrawing when it is time to.
    package func update(done: Int64) {
        guard !ended, mode != .silent else { return }
        self.done = done
        switch mode {
        case .bar:
            let now = clock()
            if let lastDrawTime, now - lastDrawTime < Self.redrawInterval { return }
            record(now)
            draw(fittedLine(now: now, final: false), newline: false)
            lastDrawTime = now
        case .percent:
            printPercent(upTo: wholePercent())
        case .silent:
            break
        }
    }

    /// Ends the display of a transfer that completed: the final state, then a line end.
    package func finish() {
        guard !ended else { return }
        ended = true
        switch mode {
        case .bar:
            if let total, done < total { done = total }
            draw(fittedLine(now: clock(), final: true), newline: true)
        case .percent:
            printPercent(upTo: 100)
        case .silent:
            break
        }
    }

    /// Ends the display of a transfer that failed: the state reached, then a line end, so that the
    /// error message starts on a line of its own.
    package func fail() {
        guard !ended else { return }
        ended = true
        guard mode == .bar, lastDrawTime != nil else { return }
        draw(fittedLine(now: clock(), final: false), newline: true)
    }

    // MARK: - Drawing

    /// The longest label shown; longer ones keep their end, where a file name's extension is.
    static let labelWidth = 16

    /// One line of the bar at its fullest, without `\r` or padding: label, percent and bar (when
    /// the total is known), bytes done, rate, and the time left (or the time taken, once `final`).
    func line(now: Double, final: Bool) -> String {
        parts(now: now, final: final).full
    }

    /// The parts of the line for `now`.
    func parts(now: Double, final: Bool) -> ProgressLine {
        let elapsed = max(now - startTime, 0)
        var time: String?
        let rate: Double
        if final {
            rate = elapsed > 0 ? Double(done - alreadyDone) / elapsed : 0
            time = "in " + ByteCountText.duration(elapsed)
        } else {
            rate = currentRate(now: now)
            if let total, rate > 0, total > done {
                time = "ETA " + ByteCountText.duration(Double(total - done) / rate)
            } else if total == nil {
                time = ByteCountText.duration(elapsed)
            }
        }
        return ProgressLine(
            label: label, fraction: fraction(), size: ByteCountText.size(done), rate: ByteCountText.rate(rate),
            time: time)
    }

    /// The line for `now`, fitted into the terminal: one column is left free, so a line never
    /// reaches the last column (where some terminals wrap at once).
    private func fittedLine(now: Double, final: Bool) -> String {
        let width = (columns() ?? TerminalWidth.fallback) - 1
        return parts(now: now, final: final).fitted(to: width)
    }

    /// Writes `text` over the current line, blanking what a longer previous line left behind
    /// (never past the terminal's width).
    private func draw(_ text: String, newline: Bool) {
        let width = ProgressLine.cells(text)
        let room = (columns() ?? TerminalWidth.fallback) - 1
        let padding = max(min(lastLineWidth, room) - width, 0)
        lastLineWidth = width
        output("\r" + text + String(repeating: " ", count: padding) + (newline ? "\n" : ""))
    }

    /// Prints a `N%` line for every whole percent above the last one printed, up to `percent`.
    ///
    /// Skipped percents are not printed one by one: a jump from 3% to 40% prints `40%` only.
    private func printPercent(upTo percent: Int?) {
        guard let percent, percent > lastPercent else { return }
        lastPercent = percent
        output("\(percent)%\n")
    }

    /// The whole percent done, or nil when the total is unknown.
    private func wholePercent() -> Int? {
        fraction().map { Int($0 * 100) }
    }

    /// The part done, between 0 and 1, or nil when the total is unknown.
    private func fraction() -> Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(max(Double(done) / Double(total), 0), 1)
    }

    /// Keeps a sample for the rate and forgets those older than the window.
    private func record(_ now: Double) {
        samples.append((now, done))
        while samples.count > 2, let first = samples.first, now - first.time > Self.rateWindow {
            samples.removeFirst()
        }
    }

    /// Bytes per second over the recent window (over the whole run while it is still short).
    private func currentRate(now: Double) -> Double {
        guard let first = samples.first else { return 0 }
        let span = now - first.time
        guard span > 0 else { return 0 }
        return Double(done - first.done) / span
    }

    /// The label cut to `labelWidth` characters, keeping its end.
    private static func fitted(_ label: String) -> String {
        guard label.count > labelWidth else { return label }
        return "…" + label.suffix(labelWidth - 1)
    }

    // MARK: - System

    /// Seconds since an arbitrary point, from the monotonic clock.
    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
