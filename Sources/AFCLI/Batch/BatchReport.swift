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
    /// bytes (strings through `JSONWriter.writeString`): a run writes one line per request.
    func jsonLine() -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(384)
        func key(_ name: StaticString, first: Bool = false) {
            if !first { line.append(UInt8(ascii: ",")) }
            line.append(UInt8(ascii: "\""))
            line.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            line.append(contentsOf: "\":".utf8)
        }
        func raw(_ text: StaticString) {
            line.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        func integer(_ value: Int64) { Self.appendDecimal(value, into: &line) }
        func seconds(_ value: Double?) {
            if let value { Self.appendSeconds(value, into: &line) } else { raw("null") }
        }
        func string(_ text: String?) {
            if let text { JSONWriter.writeString(text, into: &line) } else { raw("null") }
        }
        line.append(UInt8(ascii: "{"))
        key("name", first: true)
        string(name)
        key("method")
        string(method)
        key("url")
        string(url)
        key("status")
        if let statusCode { integer(Int64(statusCode)) } else { raw("null") }
        key("bytes")
        integer(bytes)
        key("redirects")
        integer(Int64(redirects))
        key("http_version")
        string(httpVersion)
        key("time")
        if let metrics {
            // A phase that did not happen on this transfer is null: name lookup and connect on a
            // reused connection (libcurl reports a leftover lookup time and a connect time of 0
            // there), TLS without TLS.
            let fresh = !metrics.reusedConnection
            line.append(UInt8(ascii: "{"))
            key("queue", first: true)
            seconds(metrics.queue)
            key("namelookup")
            seconds(fresh ? metrics.nameLookup : nil)
            key("connect")
            seconds(fresh ? metrics.connect : nil)
            key("tls")
            seconds(fresh && metrics.appConnect > 0 ? metrics.appConnect : nil)
            key("first_byte")
            seconds(metrics.startTransfer)
            key("total")
            seconds(metrics.total)
            line.append(UInt8(ascii: "}"))
        } else {
            raw("null")
        }
        key("reused")
        raw(metrics.map { $0.reusedConnection ? "true" : "false" } ?? "null")
        key("remote")
        string(metrics.flatMap(Self.remote))
        if let file {
            key("file")
            string(file)
        }
        key("error")
        string(error)
        key("exit")
        integer(Int64(status.rawValue))
        line.append(contentsOf: "}\n".utf8)
        return line
    }

    /// `ADDRESS:PORT` of the server, when connected.
    private static func remote(_ metrics: TransferMetrics) -> String? {
        guard let address = metrics.remoteAddress else { return nil }
        let host = address.contains(":") ? "[\(address)]" : address
        return metrics.remotePort.map { "\(host):\($0)" } ?? host
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
        var fraction = micros % 1_000_000
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 6)
        for index in stride(from: 5, through: 0, by: -1) {
            digits[index] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        line.append(contentsOf: digits)
    }

    /// Appends a decimal integer.
    static func appendDecimal(_ value: Int64, into line: inout [UInt8]) {
        if value < 0 { line.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        line.append(contentsOf: digits.reversed())
    }
}
