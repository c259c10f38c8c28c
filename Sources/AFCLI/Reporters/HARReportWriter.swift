import AFKit

/// `--report har=FILE`: HAR 1.2 (the HTTP Archive a browser's network panel opens), one entry
/// per request that got a response, with afcli's per-phase times in `timings` and the heads of
/// the request and the response; bodies are not kept (`content` has the size and type alone).
final class HARReportWriter: RunReportWriter {
    private let stream: OutputStream
    private var count = 0

    init(stream: OutputStream) {
        self.stream = stream
    }

    func add(_ record: RunRecord) throws {
        // A request that got no response has no entry: HAR has no place for a failed exchange.
        guard let head = record.responseHead, let status = record.line.statusCode else { return }
        var out: [UInt8] = []
        out += Array((count == 0 ? Self.header : ",\n").utf8)
        count += 1
        let line = record.line
        let metrics = line.metrics
        let timings = Self.timings(metrics)
        let time = [timings.blocked, timings.dns, timings.connect, timings.send, timings.wait, timings.receive]
            .filter { $0 > 0 }.reduce(0, +)
        let started = metrics.map { $0.startDate - $0.queue } ?? 0
        out += Array("{\"startedDateTime\":\"\(ISO8601Date.text(unixSeconds: started, milliseconds: true))\",".utf8)
        out += Array("\"time\":\(Self.milliseconds(time)),\"request\":{\"method\":".utf8)
        JSONWriter.writeString(line.method, into: &out)
        out += Array(",\"url\":".utf8)
        JSONWriter.writeString(line.url, into: &out)
        out += Array(",\"httpVersion\":".utf8)
        JSONWriter.writeString(line.httpVersion ?? "HTTP/1.1", into: &out)
        let redaction = record.redaction
        let requestHeaders = record.requestHeaders.map { ($0.name, $0.value) }
        out += Array(",\"cookies\":".utf8)
        Self.write(redaction.cookies(requestHeaders, setByResponse: false), into: &out)
        out += Array(",\"headers\":".utf8)
        Self.write(requestHeaders.map { ($0.0, redaction.value(name: $0.0, value: $0.1)) }, into: &out)
        out += Array(",\"queryString\":".utf8)
        Self.write(Self.query(of: line.url), into: &out)
        out += Array(",\"headersSize\":-1,\"bodySize\":\(record.requestBodySize ?? -1)},\"response\":{".utf8)
        out += Array("\"status\":\(status),\"statusText\":".utf8)
        JSONWriter.writeString(head.shownReasonPhrase, into: &out)
        out += Array(",\"httpVersion\":".utf8)
        JSONWriter.writeString(head.httpVersion, into: &out)
        let responseHeaders = head.headers
        out += Array(",\"cookies\":".utf8)
        Self.write(redaction.cookies(responseHeaders, setByResponse: true), into: &out)
        out += Array(",\"headers\":".utf8)
        Self.write(responseHeaders.map { ($0.name, redaction.value(name: $0.name, value: $0.value)) }, into: &out)
        out += Array(",\"content\":{\"size\":\(line.bytes),\"mimeType\":".utf8)
        JSONWriter.writeString(head.value(for: "Content-Type") ?? "", into: &out)
        out += Array("},\"redirectURL\":".utf8)
        JSONWriter.writeString(head.value(for: "Location") ?? "", into: &out)
        out += Array(",\"headersSize\":-1,\"bodySize\":\(line.bytes)},\"cache\":{},\"timings\":{".utf8)
        out += Array(("\"blocked\":\(Self.milliseconds(timings.blocked)),\"dns\":\(Self.milliseconds(timings.dns)),"
            + "\"connect\":\(Self.milliseconds(timings.connect)),\"ssl\":\(Self.milliseconds(timings.ssl)),"
            + "\"send\":\(Self.milliseconds(timings.send)),\"wait\":\(Self.milliseconds(timings.wait)),"
            + "\"receive\":\(Self.milliseconds(timings.receive))}").utf8)
        if let remote = metrics?.remoteAddress {
            out += Array(",\"serverIPAddress\":".utf8)
            JSONWriter.writeString(remote, into: &out)
        }
        out += Array(",\"comment\":".utf8)
        JSONWriter.writeString(record.origin, into: &out)
        out += Array("}".utf8)
        try stream.write(out)
    }

    func finish(_ summary: RunSummary) throws {
        try stream.write(count == 0 ? Self.header + "]}}\n" : "\n]}}\n")
        try stream.flush()
    }

    private static var header: String {
        "{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"afcli\",\"version\":\"\(ProgramInfo.version)\"},"
            + "\"pages\":[],\"entries\":[\n"
    }

    /// HAR's phases in seconds from libcurl's cumulative times; -1 for a phase that did not
    /// happen (a reused connection's DNS and connect, TLS without TLS).
    private static func timings(_ metrics: TransferMetrics?) -> (
        blocked: Double, dns: Double, connect: Double, ssl: Double, send: Double, wait: Double, receive: Double
    ) {
        guard let metrics else { return (-1, -1, -1, -1, 0, 0, 0) }
        let fresh = !metrics.reusedConnection
        let dns = fresh ? metrics.nameLookup : -1
        // HAR's connect includes the TLS handshake, which ssl also reports.
        let connect = fresh ? max(0, max(metrics.connect, metrics.appConnect) - metrics.nameLookup) : -1
        let ssl = fresh && metrics.appConnect > 0 ? max(0, metrics.appConnect - metrics.connect) : -1
        let wait = max(0, metrics.startTransfer - metrics.preTransfer)
        let receive = max(0, metrics.total - metrics.startTransfer)
        let send = max(0, metrics.preTransfer - max(metrics.appConnect, metrics.connect, metrics.nameLookup))
        return (metrics.queue, dns, connect, ssl, send, wait, receive)
    }

    /// Seconds as HAR's milliseconds (three decimals); -1 stays -1.
    private static func milliseconds(_ seconds: Double) -> String {
        seconds < 0 ? "-1" : decimalSeconds(seconds * 1000)
    }

    /// `[{"name":…,"value":…}]`.
    private static func write(_ pairs: [(String, String)], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, pair) in pairs.enumerated() {
            out += Array((index == 0 ? "{\"name\":" : ",{\"name\":").utf8)
            JSONWriter.writeString(pair.0, into: &out)
            out += Array(",\"value\":".utf8)
            JSONWriter.writeString(pair.1, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// The URL's query as name/value pairs, as written (not decoded).
    private static func query(of url: String) -> [(String, String)] {
        guard let mark = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: mark)...].prefix { $0 != "#" }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }
}
