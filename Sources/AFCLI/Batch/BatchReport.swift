import AFKit

/// What became of one request of a batch: the line `afcli run` prints for it and the exit status
/// it counts as.
struct BatchReport {
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
    /// libcurl's facts about the final transfer, with afcli's queue time; nil without a response.
    var metrics: TransferMetrics?
    /// The HTTP version of the final response (`HTTP/1.1`, `HTTP/2`).
    var httpVersion: String?
    /// Where the body was saved (`--output-dir`); nil when it was discarded.
    var file: String?
    /// The failure, in afcli's error wording; nil for a success.
    var error: String?
    /// The exit status this request counts as (`.success` when it succeeded).
    var status: ExitStatus = .success

    /// Whether the request counts as succeeded.
    var succeeded: Bool { status == .success }

    /// The NDJSON line: one compact JSON object and a line feed. Times are seconds from the start
    /// of the final transfer as libcurl measured them (null for a phase that did not happen),
    /// except `queue`, which afcli measures before the transfer starts. Written straight into
    /// bytes (strings through `JSONWriter.writeString`, each key with its punctuation as one
    /// literal): a run writes one line per request.
    func jsonLine() -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(384)
        Self.raw("{\"name\":", into: &line)
        Self.string(name, into: &line)
        Self.raw(",\"method\":", into: &line)
        Self.string(method, into: &line)
        Self.raw(",\"url\":", into: &line)
        Self.string(url, into: &line)
        Self.raw(",\"status\":", into: &line)
        if let statusCode { Self.appendDecimal(Int64(statusCode), into: &line) } else { Self.raw("null", into: &line) }
        Self.raw(",\"bytes\":", into: &line)
        Self.appendDecimal(bytes, into: &line)
        Self.raw(",\"redirects\":", into: &line)
        Self.appendDecimal(Int64(redirects), into: &line)
        Self.raw(",\"http_version\":", into: &line)
        Self.string(httpVersion, into: &line)
        Self.raw(",\"time\":", into: &line)
        if let metrics {
            // A phase that did not happen on this transfer is null: name lookup and connect on a
            // reused connection (libcurl reports a leftover lookup time and a connect time of 0
            // there), TLS without TLS.
            let fresh = !metrics.reusedConnection
            Self.raw("{\"queue\":", into: &line)
            Self.seconds(metrics.queue, into: &line)
            Self.raw(",\"namelookup\":", into: &line)
            Self.seconds(fresh ? metrics.nameLookup : nil, into: &line)
            Self.raw(",\"connect\":", into: &line)
            Self.seconds(fresh ? metrics.connect : nil, into: &line)
            Self.raw(",\"tls\":", into: &line)
            Self.seconds(fresh && metrics.appConnect > 0 ? metrics.appConnect : nil, into: &line)
            Self.raw(",\"first_byte\":", into: &line)
            Self.seconds(metrics.startTransfer, into: &line)
            Self.raw(",\"total\":", into: &line)
            Self.seconds(metrics.total, into: &line)
            Self.raw("},\"reused\":", into: &line)
            Self.raw(metrics.reusedConnection ? "true" : "false", into: &line)
            Self.raw(",\"remote\":", into: &line)
            Self.appendRemote(metrics, into: &line)
        } else {
            Self.raw("null,\"reused\":null,\"remote\":null", into: &line)
        }
        if let file {
            Self.raw(",\"file\":", into: &line)
            Self.string(file, into: &line)
        }
        Self.raw(",\"error\":", into: &line)
        Self.string(error, into: &line)
        Self.raw(",\"exit\":", into: &line)
        Self.appendDecimal(Int64(status.rawValue), into: &line)
        Self.raw("}\n", into: &line)
        return line
    }

    /// Appends literal text.
    private static func raw(_ text: StaticString, into line: inout [UInt8]) {
        line.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a JSON string, or null.
    private static func string(_ text: String?, into line: inout [UInt8]) {
        if let text { JSONWriter.writeString(text, into: &line) } else { raw("null", into: &line) }
    }

    /// Appends seconds, or null.
    private static func seconds(_ value: Double?, into line: inout [UInt8]) {
        if let value { appendSeconds(value, into: &line) } else { raw("null", into: &line) }
    }

    /// Appends `"ADDRESS:PORT"` of the server (an IPv6 address in brackets), or null when not connected.
    private static func appendRemote(_ metrics: TransferMetrics, into line: inout [UInt8]) {
        guard let address = metrics.remoteAddress else { return raw("null", into: &line) }
        let bracketed = address.utf8.contains(UInt8(ascii: ":"))
        line.append(UInt8(ascii: "\""))
        if bracketed { line.append(UInt8(ascii: "[")) }
        JSONWriter.writeEscaped(address, into: &line)
        if bracketed { line.append(UInt8(ascii: "]")) }
        if let port = metrics.remotePort {
            line.append(UInt8(ascii: ":"))
            appendDecimal(Int64(port), into: &line)
        }
        line.append(UInt8(ascii: "\""))
    }

    /// Seconds as a JSON number with microsecond precision (`0.001234`).
    static func seconds(_ value: Double) -> String {
        var bytes: [UInt8] = []
        appendSeconds(value, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` seconds with microsecond precision, written without Foundation's formatters.
    static func appendSeconds(_ value: Double, into line: inout [UInt8]) {
        let micros = Int64((min(max(0, value), 1e12) * 1_000_000).rounded())
        appendDecimal(micros / 1_000_000, into: &line)
        line.append(UInt8(ascii: "."))
        let fraction = micros % 1_000_000
        var divisor: Int64 = 100_000
        while divisor > 0 {
            line.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends a decimal integer, highest digit first.
    static func appendDecimal(_ value: Int64, into line: inout [UInt8]) {
        if value < 0 { line.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            line.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }
}
