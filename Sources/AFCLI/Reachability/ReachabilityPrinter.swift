import AFKit
import Glibc

/// Writes reachability answers: `key: value` lines for people (the first is always
/// `status: …`), or one JSON object per answer with `--json`; a watch writes one line (or one
/// JSON object) per change, flushed at once so a pipe sees it.
struct ReachabilityPrinter {
    /// Where answers go.
    let stream: OutputStream
    /// Whether to write JSON.
    let json: Bool

    /// Prints a one-shot answer.
    func report(_ report: ReachabilityReport) throws {
        if json {
            try stream.write(try JSONWriter.encodeToString(.object(members(of: report))) + "\n")
        } else {
            try stream.write(lines(of: report).joined(separator: "\n") + "\n")
        }
        try stream.flush()
    }

    /// Prints one watched change: `TIME previous -> status …`.
    func change(
        from previous: ReachabilityStatus, to report: ReachabilityReport, source: ReachabilityMonitor.ChangeSource
    ) throws {
        let time = Self.timestamp()
        if json {
            let members =
                [
                    JSONMember(key: "time", value: .string(time)),
                    JSONMember(key: "previous", value: .string(previous.rawValue)),
                    JSONMember(key: "watching", value: .string(source.rawValue)),
                ] + members(of: report)
            try stream.write(try JSONWriter.encodeToString(.object(members)) + "\n")
        } else {
            var line = "\(time) \(previous.rawValue) -> \(summary(of: report))"
            if let probe = report.probe { line += "; " + Self.probeText(probe) }
            try stream.write(line + "\n")
        }
        try stream.flush()
    }

    /// `reachable via eth0 (ethernet), source 192.0.2.2 -> 93.184.216.34` or
    /// `not-reachable (network is unreachable)`.
    private func summary(of report: ReachabilityReport) -> String {
        guard let route = report.primaryRoute else {
            return report.status.rawValue + (report.reason.map { " (\($0))" } ?? "")
        }
        return "\(report.status.rawValue) via \(Self.interfaceText(route))\(Self.sourceText(route)) -> "
            + destinationText(route, in: report)
    }

    /// The human-readable lines of an answer.
    private func lines(of report: ReachabilityReport) -> [String] {
        var lines = ["status: \(report.status.rawValue)", "target: \(report.target.label)"]
        if let route = report.primaryRoute {
            lines.append("interface: \(Self.interfaceText(route))")
            if let source = route.source { lines.append("source: \(source.host)") }
            lines.append("destination: \(destinationText(route, in: report))")
        } else if let reason = report.reason {
            lines.append("reason: \(reason)")
        }
        let status = report.afStatus
        lines.append("af-status: \(status.name) (\(status.value))")
        for route in report.routes {
            let text =
                route.isUsable
                ? "via \(Self.interfaceText(route))\(Self.sourceText(route))"
                : "no route (\(route.problem ?? "unknown"))"
            lines.append("route \(destinationText(route, in: report)): \(text)")
        }
        if let probe = report.probe { lines.append("probe: " + Self.probeText(probe)) }
        return lines
    }

    /// The JSON members of an answer.
    private func members(of report: ReachabilityReport) -> [JSONMember] {
        let primary = report.primaryRoute
        let status = report.afStatus
        var members = [
            JSONMember(key: "status", value: .string(report.status.rawValue)),
            JSONMember(key: "target", value: .string(report.target.label)),
            JSONMember(key: "host", value: report.target.hostName.map { .string($0) } ?? .null),
            JSONMember(key: "port", value: report.target.port.map { .number(String($0)) } ?? .null),
            JSONMember(key: "interface", value: primary?.interface.map { .string($0.name) } ?? .null),
            JSONMember(key: "kind", value: primary?.interface.map { .string($0.kind.rawValue) } ?? .null),
            JSONMember(key: "source", value: primary?.source.map { .string($0.host) } ?? .null),
            JSONMember(key: "destination", value: primary.map { .string(destinationText($0, in: report)) } ?? .null),
            JSONMember(key: "reason", value: report.reason.map { .string($0) } ?? .null),
            JSONMember(key: "afStatus", value: .string(status.name)),
            JSONMember(key: "afStatusValue", value: .number(String(status.value))),
        ]
        let routes = report.routes.map { route in
            JSONValue.object([
                JSONMember(key: "destination", value: .string(destinationText(route, in: report))),
                JSONMember(key: "family", value: .string(route.destination.family.rawValue)),
                JSONMember(key: "reachable", value: .bool(route.isUsable)),
                JSONMember(key: "interface", value: route.interface.map { .string($0.name) } ?? .null),
                JSONMember(key: "kind", value: route.interface.map { .string($0.kind.rawValue) } ?? .null),
                JSONMember(key: "source", value: route.source.map { .string($0.host) } ?? .null),
                JSONMember(key: "problem", value: route.problem.map { .string($0) } ?? .null),
            ])
        }
        members.append(JSONMember(key: "routes", value: .array(routes)))
        if let probe = report.probe {
            members.append(JSONMember(key: "probe", value: Self.probeJSON(probe)))
        }
        return members
    }

    /// The destination address, or `default route (ipv4)` when any route was asked about.
    private func destinationText(_ route: RouteReport, in report: ReachabilityReport) -> String {
        report.target == .anyRoute ? "default route (\(route.destination.family.rawValue))" : route.destination.host
    }

    /// `eth0 (ethernet)`, or `unknown interface` when no interface owns the source address.
    private static func interfaceText(_ route: RouteReport) -> String {
        guard let interface = route.interface else { return "unknown interface" }
        return "\(interface.name) (\(interface.kind.rawValue))"
    }

    /// `, source 192.0.2.2`, or nothing.
    private static func sourceText(_ route: RouteReport) -> String {
        route.source.map { ", source \($0.host)" } ?? ""
    }

    /// `tcp 127.0.0.1:443 connected in 0.3 ms, tls handshake done at 4.1 ms (packets were sent)`.
    private static func probeText(_ probe: ProbeReport) -> String {
        let address =
            probe.address.contains(":") ? "[\(probe.address)]:\(probe.port)" : "\(probe.address):\(probe.port)"
        if let error = probe.tcpError {
            return "tcp \(address) failed: \(error) (active probe, packets were sent)"
        }
        var text = "tcp \(address) connected" + (probe.tcpSeconds.map { " in \(milliseconds($0))" } ?? "")
        if let tls = probe.tlsSeconds {
            text += ", tls handshake done at \(milliseconds(tls))"
        } else if let error = probe.tlsError {
            text += ", tls failed: \(error)"
        }
        return text + " (active probe, packets were sent)"
    }

    /// The probe as JSON, times in milliseconds.
    private static func probeJSON(_ probe: ProbeReport) -> JSONValue {
        func number(_ seconds: Double?) -> JSONValue {
            seconds.map { .number(millisecondNumber($0)) } ?? .null
        }
        return .object([
            JSONMember(key: "address", value: .string(probe.address)),
            JSONMember(key: "port", value: .number(String(probe.port))),
            JSONMember(key: "tcpMilliseconds", value: number(probe.tcpSeconds)),
            JSONMember(key: "tlsMilliseconds", value: number(probe.tlsSeconds)),
            JSONMember(key: "tcpError", value: probe.tcpError.map { .string($0) } ?? .null),
            JSONMember(key: "tlsError", value: probe.tlsError.map { .string($0) } ?? .null),
            JSONMember(key: "succeeded", value: .bool(probe.succeeded)),
        ])
    }

    /// `3.142 ms`.
    private static func milliseconds(_ seconds: Double) -> String {
        millisecondNumber(seconds) + " ms"
    }

    /// Seconds as milliseconds with three decimals, `3.142`, without Foundation's formatters.
    private static func millisecondNumber(_ seconds: Double) -> String {
        let microseconds = Int((seconds * 1_000_000).rounded())
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The current UTC time as ISO 8601, `2026-11-22T13:04:05Z`.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
