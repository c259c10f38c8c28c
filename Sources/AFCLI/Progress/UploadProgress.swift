import AFKit

/// Shows the progress of a streamed request body with a `ProgressMeter`: one meter per sending
/// of the body (a 307/308 redirect or an authentication retry sends it again from the start).
///
/// Bytes are counted as libcurl pulls them from the body (`ProgressCountingBodySource`), which is
/// also how the end of the upload is known for certain; libcurl's periodic progress calls
/// (`tick()`) only redraw, so the rate keeps falling while the network stalls.
final class UploadProgress {
    /// How progress is shown.
    private let style: ProgressStyle
    /// Whether standard error is a terminal (for `auto`).
    private let stderrIsTerminal: Bool
    /// The text before the bar.
    private let label: String
    /// The meter of the current sending, created at its first read.
    private var meter: ProgressMeter?
    /// Bytes pulled since the current sending started.
    private var sent: Int64 = 0
    /// The body's length, when known.
    private var total: Int64?
    /// Whether the current sending delivered its last byte.
    private var complete = false
    /// The last percent line printed by any sending: a body sent again (a redirect, an
    /// authentication retry) prints no line until it passes it, so the lines never go back.
    private var percentPrinted = -1

    /// Progress for a body shown as `label`, drawn as `style` asks.
    init(style: ProgressStyle, stderrIsTerminal: Bool, label: String) {
        self.style = style
        self.stderrIsTerminal = stderrIsTerminal
        self.label = label
    }

    /// `body` wrapped so that what libcurl pulls from it is counted here.
    func wrap(_ body: BodySource) -> BodySource {
        total = body.length.map { Int64(clamping: $0) }
        return ProgressCountingBodySource(body, progress: self)
    }

    /// The body delivered `count` more bytes (0 once it has ended).
    func delivered(_ count: Int) {
        let meter = currentMeter()
        sent += Int64(count)
        // libcurl stops reading at the announced length; only a chunked body reads its end.
        if count == 0 || total.map({ sent >= $0 }) == true { complete = true }
        meter.update(done: sent)
    }

    /// The body starts again from its first byte: the current meter ends where it got to.
    func rewound() {
        end()
        sent = 0
        complete = false
    }

    /// libcurl's periodic progress call: redraws with the same count so the rate stays current.
    func tick() {
        meter?.update(done: sent)
    }

    /// A response arrived: the current sending is over, whole or not.
    func responseStarted() {
        end()
    }

    /// The exchange failed: a bar stops where it got to, on a line of its own.
    func fail() {
        meter?.fail()
        if let meter { percentPrinted = meter.lastPercent }
        meter = nil
    }

    /// Ends the current meter: finished when the whole body went out, failed otherwise.
    private func end() {
        guard let meter else { return }
        if complete {
            meter.finish()
        } else {
            meter.fail()
        }
        percentPrinted = meter.lastPercent
        self.meter = nil
    }

    /// The meter for the current sending, made on first use.
    private func currentMeter() -> ProgressMeter {
        if let meter { return meter }
        let meter = ProgressMeter(
            style: style, stderrIsTerminal: stderrIsTerminal, label: label, total: total,
            percentPrinted: percentPrinted)
        self.meter = meter
        // CJNetwork's states begin at "ready": 0% before the first byte.
        meter.update(done: 0)
        return meter
    }
}

/// A body source that reports every read to an `UploadProgress`.
final class ProgressCountingBodySource: BodySource {
    /// The body being counted.
    private let base: BodySource
    /// Where counts go.
    private let progress: UploadProgress

    init(_ base: BodySource, progress: UploadProgress) {
        self.base = base
        self.progress = progress
    }

    var length: UInt64? { base.length }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        progress.delivered(count)
        return count
    }

    func rewind() throws {
        try base.rewind()
        progress.rewound()
    }
}
