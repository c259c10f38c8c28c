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
    /// except `queue`, which afcli measures before the transfer starts.
    func jsonLine() -> [UInt8] {
        var members: [JSONMember] = [
            JSONMember(key: "name", value: .string(name)),
            JSONMember(key: "method", value: .string(method)),
            JSONMember(key: "url", value: .string(url)),
            JSONMember(key: "status", value: statusCode.map { .number(String($0)) } ?? .null),
            JSONMember(key: "bytes", value: .number(String(bytes))),
            JSONMember(key: "redirects", value: .number(String(redirects))),
            JSONMember(key: "http_version", value: httpVersion.map { .string($0) } ?? .null),
            JSONMember(key: "time", value: metrics.map(Self.times) ?? .null),
            JSONMember(key: "reused", value: metrics.map { .bool($0.reusedConnection) } ?? .null),
            JSONMember(key: "remote", value: metrics.flatMap(Self.remote) ?? .null),
        ]
        if let file { members.append(JSONMember(key: "file", value: .string(file))) }
        members.append(JSONMember(key: "error", value: error.map { .string($0) } ?? .null))
        members.append(JSONMember(key: "exit", value: .number(String(status.rawValue))))
        var line: [UInt8] = []
        // Every number above is written from an integer or by `seconds`, so the writer cannot refuse one.
        try? JSONWriter.write(.object(members), into: &line)
        line.append(0x0A)
        return line
    }

    /// The `time` object: libcurl's cumulative phase times and afcli's queue time. A phase that
    /// did not happen on this transfer is null: name lookup and connect on a reused connection
    /// (libcurl reports a leftover lookup time and a connect time of 0 there), TLS without TLS.
    private static func times(_ metrics: TransferMetrics) -> JSONValue {
        let fresh = !metrics.reusedConnection
        return .object([
            JSONMember(key: "queue", value: seconds(metrics.queue)),
            JSONMember(key: "namelookup", value: fresh ? seconds(metrics.nameLookup) : .null),
            JSONMember(key: "connect", value: fresh ? seconds(metrics.connect) : .null),
            JSONMember(key: "tls", value: fresh && metrics.appConnect > 0 ? seconds(metrics.appConnect) : .null),
            JSONMember(key: "first_byte", value: seconds(metrics.startTransfer)),
            JSONMember(key: "total", value: seconds(metrics.total)),
        ])
    }

    /// `ADDRESS:PORT` of the server, when connected.
    private static func remote(_ metrics: TransferMetrics) -> JSONValue? {
        guard let address = metrics.remoteAddress else { return nil }
        let host = address.contains(":") ? "[\(address)]" : address
        return .string(metrics.remotePort.map { "\(host):\($0)" } ?? host)
    }

    /// Seconds as a JSON number with microsecond precision (`0.001234`), written without
    /// Foundation's formatters.
    static func seconds(_ value: Double) -> JSONValue {
        let micros = Int64((max(0, value) * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return .number("\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)")
    }
}
