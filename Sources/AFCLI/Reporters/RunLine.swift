import AFKit

/// What became of one request of a batch: the line `afcli run` prints for it and the exit status
/// it counts as.
struct RunLine {
    /// The request's name.
    var name: String
    /// The method and URL of the original request (empty when it could not be built).
    var method: String
    var url: String
    /// The final response's status code; nil when no response arrived.
    var statusCode: Int?
    /// Body bytes of the final response, after content decoding.
    var bytes: Int64 = 0
    /// How many redirects were followed.
    var redirects = 0
    /// libcurl's facts about the final transfer, with afcli's queue time; for a transfer that
    /// failed in libcurl, its times up to the failure; nil when libcurl never ran it.
    var metrics: TransferMetrics?
    /// Whether `metrics` end at a failure, where a phase libcurl reports as 0 never happened.
    var metricsEndAtFailure = false
    /// The HTTP version of the final response (`HTTP/1.1`, `HTTP/2`).
    var httpVersion: String?
    /// Where the body was saved (`--output-dir`); nil when it was discarded.
    var file: String?
    /// Whether the run uses the response cache: the line then has a `cache` field.
    var usesCache = false
    /// What the cache did for this request; nil when it took no part.
    var cache: CacheOutcome?
    /// How many tries it took and why it was last retried (`--retry`); nil, and not in the line,
    /// without retries.
    var retry: RetryRecord?
    /// The failure, in afcli's error wording; nil for a success.
    var error: String?
    /// The exit status this request counts as (`.success` when it succeeded).
    var status: ExitStatus = .success
    /// Its assertions (`??` lines) and what each saw; empty for none, and then not in the line.
    var assertions: [AssertionResult] = []
    /// How many times failed assertions had it sent (`# @retry`); in the line only when above 1.
    var assertionTries = 1

    /// Whether the request counts as succeeded.
    var succeeded: Bool { status == .success }

    /// Takes the judge's verdict on the request: its exit status and, for a failure, its message.
    mutating func apply(_ verdict: OutcomeJudge.Verdict) {
        status = verdict.status
        error = verdict.message
    }

    /// The NDJSON line: one compact JSON object and a line feed. Times are seconds from the start
    /// of the final transfer as libcurl measured them (null for a phase that did not happen),
    /// except `queue`, which afcli measures before the transfer starts. Written straight into
    /// bytes through a cursor over a buffer sized for the worst case (every byte of every text
    /// escaped): a run writes one line per request.
    func jsonLine() -> [UInt8] {
        func escapedBound(_ text: String?) -> Int { 6 * (text?.utf8.count ?? 0) }
        let bound =
            Self.fixedBound + escapedBound(name) + escapedBound(method) + escapedBound(url)
            + escapedBound(httpVersion) + escapedBound(file) + escapedBound(error)
            + escapedBound(metrics?.remoteAddress) + escapedBound(retry?.reason)
            + assertions.reduce(0) { $0 + 64 + escapedBound($1.assertion.text) + escapedBound($1.actual) + escapedBound($1.problem) }
        return [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var line = LineWriter(buffer)
            write(into: &line)
            count = line.count
        }
    }

    /// The most bytes of a line other than its texts: keys, punctuation, numbers and literals.
    private static let fixedBound = 512

    /// Writes the line's fields.
    private func write(into line: inout LineWriter) {
        line.raw("{\"name\":")
        line.string(name)
        line.raw(",\"method\":")
        line.string(method)
        line.raw(",\"url\":")
        line.string(url)
        line.raw(",\"status\":")
        if let statusCode { line.decimal(Int64(statusCode)) } else { line.raw("null") }
        line.raw(",\"bytes\":")
        line.decimal(bytes)
        line.raw(",\"redirects\":")
        line.decimal(Int64(redirects))
        line.raw(",\"http_version\":")
        line.string(httpVersion)
        line.raw(",\"time\":")
        if let metrics {
            // A phase that did not happen on this transfer is null: name lookup and connect on a
            // reused connection (libcurl reports a leftover lookup time and a connect time of 0
            // there), TLS without TLS, and what a failure came before (reported as 0).
            let fresh = !metrics.reusedConnection
            func happened(_ seconds: Double) -> Double? { metricsEndAtFailure && seconds <= 0 ? nil : seconds }
            line.raw("{\"queue\":")
            line.seconds(metrics.queue)
            line.raw(",\"namelookup\":")
            line.seconds(fresh ? happened(metrics.nameLookup) : nil)
            line.raw(",\"connect\":")
            line.seconds(fresh ? happened(metrics.connect) : nil)
            line.raw(",\"tls\":")
            line.seconds(fresh && metrics.appConnect > 0 ? metrics.appConnect : nil)
            line.raw(",\"first_byte\":")
            line.seconds(happened(metrics.startTransfer))
            line.raw(",\"total\":")
            line.seconds(metrics.total)
            line.raw("},\"reused\":")
            line.raw(metrics.reusedConnection ? "true" : "false")
            line.raw(",\"remote\":")
            line.remote(metrics)
        } else {
            line.raw("null,\"reused\":null,\"remote\":null")
        }
        if let file {
            line.raw(",\"file\":")
            line.string(file)
        }
        if let retry {
            line.raw(",\"tries\":")
            line.decimal(Int64(retry.tries))
            line.raw(",\"retry_reason\":")
            line.string(retry.reason)
        }
        if usesCache {
            line.raw(",\"cache\":")
            line.string(cache?.word)
        }
        if assertionTries > 1 {
            line.raw(",\"assertion_tries\":")
            line.decimal(Int64(assertionTries))
        }
        if !assertions.isEmpty {
            line.raw(",\"assertions\":[")
            for (position, result) in assertions.enumerated() {
                line.raw(position == 0 ? "{\"line\":" : ",{\"line\":")
                line.decimal(Int64(result.assertion.line))
                line.raw(",\"assert\":")
                line.string(result.assertion.text)
                line.raw(",\"passed\":")
                line.raw(result.passed ? "true" : "false")
                line.raw(",\"actual\":")
                line.string(result.actual)
                if let problem = result.problem {
                    line.raw(",\"problem\":")
                    line.string(problem)
                }
                line.raw("}")
            }
            line.raw("]")
        }
        line.raw(",\"error\":")
        line.string(error)
        line.raw(",\"exit\":")
        line.decimal(Int64(status.rawValue))
        line.raw("}\n")
    }

    /// Seconds as a JSON number with microsecond precision (`0.001234`).
    static func seconds(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            var line = LineWriter(buffer)
            line.seconds(value)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<line.count]), as: UTF8.self)
        }
    }
}

/// A cursor writing a report line into a buffer the caller sized for it (`RunLine.jsonLine`
/// bounds the line by its texts, each byte escaped to at most 6).
private struct LineWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Writes one byte.
    mutating func byte(_ value: UInt8) {
        precondition(count < buffer.count, "report line longer than its bound")
        buffer[count] = value
        count += 1
    }

    /// Writes literal text.
    mutating func raw(_ text: StaticString) {
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes bytes as they are.
    mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        precondition(source.count <= buffer.count - count, "report line longer than its bound")
        guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
        (to + count).update(from: from, count: source.count)
        count += source.count
    }

    /// Writes a JSON string, or null.
    mutating func string(_ text: String?) {
        guard var text else { return raw("null") }
        byte(UInt8(ascii: "\""))
        escaped(&text)
        byte(UInt8(ascii: "\""))
    }

    /// Writes `text` escaped as inside a JSON string: as it is when nothing needs escaping (the
    /// usual case), else through `JSONWriter`'s escaping.
    private mutating func escaped(_ text: inout String) {
        let plain = text.withUTF8 { source in
            guard JSONWriter.needsNoEscape(source) else { return false }
            bytes(source)
            return true
        }
        if plain { return }
        var escaped: [UInt8] = []
        JSONWriter.writeEscaped(text, into: &escaped)
        escaped.withUnsafeBufferPointer { bytes($0) }
    }

    /// Writes seconds, or null.
    mutating func seconds(_ value: Double?) {
        if let value { seconds(value) } else { raw("null") }
    }

    /// Writes `value` seconds with microsecond precision, without Foundation's formatters.
    mutating func seconds(_ value: Double) {
        let micros = Int64((min(max(0, value), 1e12) * 1_000_000).rounded())
        decimal(micros / 1_000_000)
        byte(UInt8(ascii: "."))
        let fraction = micros % 1_000_000
        var divisor: Int64 = 100_000
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Writes a decimal integer, highest digit first.
    mutating func decimal(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// Writes `"ADDRESS:PORT"` of the server (an IPv6 address in brackets), or null when not connected.
    mutating func remote(_ metrics: TransferMetrics) {
        guard var address = metrics.remoteAddress else { return raw("null") }
        let bracketed = address.containsUTF8Byte(UInt8(ascii: ":"))
        byte(UInt8(ascii: "\""))
        if bracketed { byte(UInt8(ascii: "[")) }
        escaped(&address)
        if bracketed { byte(UInt8(ascii: "]")) }
        if let port = metrics.remotePort {
            byte(UInt8(ascii: ":"))
            decimal(Int64(port))
        }
        byte(UInt8(ascii: "\""))
    }
}
