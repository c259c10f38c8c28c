/// The metrics table `--print=m` and `--verbose` show after the exchange: each phase's duration
/// and when it ended, the protocol, whether the connection was reused, both addresses and the
/// bytes each way (httpie/cli#243's per-phase timings, AFNetworking's task metrics).
///
/// Plain text lines with colour escapes from `SyntaxColors` (empty when colour is off), so the
/// single-request printer and a batch's per-request output share one layout.
package struct MetricsReport {
    /// The colours for labels (`key`), numbers (`number`), text values (`string`) and hop titles
    /// (`emphasis`).
    package var colors: SyntaxColors

    package init(colors: SyntaxColors = .none) {
        self.colors = colors
    }

    /// The table for `metrics`: one block per hop when `everyHop`, else the final hop's only.
    package func text(for metrics: TaskMetrics, everyHop: Bool) -> String {
        var text = ""
        if metrics.redirectCount > 0 {
            text += label("Redirects:") + " " + number(String(metrics.redirectCount)) + "\n"
        }
        let hops = everyHop ? Array(metrics.transactions.enumerated()) : [(metrics.redirectCount, metrics.final)]
        for (index, hop) in hops {
            text += "\n"
            if everyHop, metrics.transactions.count > 1 {
                text += title(index: index, of: metrics.transactions.count, hop) + "\n"
            }
            text += block(for: hop)
        }
        return text
    }

    /// One hop's phase table and connection lines.
    package func block(for hop: TransferMetrics) -> String {
        var text = "  " + emphasis(pad("Phase", 16) + leftPad("Duration", 12) + leftPad("At", 12)) + "\n"
        if hop.answeredFromCache {
            // Nothing went to the network: one phase, and no connection or bytes to speak of.
            let read = Self.milliseconds(hop.total)
            text += "  " + label(pad("cache read", 16)) + number(leftPad(read, 12)) + number(leftPad(read, 12)) + "\n"
            return text + "  " + label("Connection:") + " " + value("none (answered from the cache)") + "\n"
        }
        for phase in MetricsPhase.phases(of: hop) {
            text += "  " + label(pad(phase.name, 16))
            text += number(leftPad(phase.duration.map(Self.milliseconds) ?? "-", 12))
            if phase.name != "queue" {
                text += number(leftPad(phase.end.map(Self.milliseconds) ?? "-", 12))
            }
            text += "\n"
        }
        var connection = hop.reusedConnection ? "reused" : "new"
        if let remote = hop.remoteAddress {
            connection += ", to " + Self.endpoint(remote, hop.remotePort)
        }
        if let local = hop.localAddress {
            connection += " from " + Self.endpoint(local, hop.localPort)
        }
        text += "  " + label("Connection:") + " " + value(connection) + "\n"
        text +=
            "  " + label("Sent:") + " " + number(String(hop.requestBytes)) + " bytes of head, "
            + number(String(hop.bodyBytesSent)) + " of body\n"
        text +=
            "  " + label("Received:") + " " + number(String(hop.headerBytes)) + " bytes of head, "
            + number(String(hop.bodyBytesReceived)) + " of body\n"
        return text
    }

    /// `Hop 1 of 2: GET http://… → 302`.
    private func title(index: Int, of count: Int, _ hop: TransferMetrics) -> String {
        var text = "Hop \(index + 1) of \(count):"
        if let method = hop.method { text += " " + Self.printable(method) }
        if let url = hop.effectiveURL { text += " " + Self.printable(url) }
        if hop.responseCode > 0 { text += " → \(hop.responseCode)" }
        if let name = hop.protocolName { text += " (\(name))" }
        return emphasis(text)
    }

    /// `address:port`, with brackets around an IPv6 address.
    static func endpoint(_ address: String, _ port: Int?) -> String {
        let host = address.contains(":") ? "[\(address)]" : address
        return port.map { "\(host):\($0)" } ?? host
    }

    /// Seconds as milliseconds with three decimals: `12.345 ms`.
    static func milliseconds(_ seconds: Double) -> String {
        DecimalText.fixed(seconds * 1000, digits: 3) + " ms"
    }

    /// The text with control characters replaced, so a server-chosen URL cannot drive the terminal.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private func leftPad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private func paint(_ text: String, _ color: StaticBytes) -> String {
        guard !color.isEmpty else { return text }
        return String(decoding: color.array, as: UTF8.self) + text + String(decoding: colors.reset.array, as: UTF8.self)
    }

    private func label(_ text: String) -> String { paint(text, colors.key) }
    private func number(_ text: String) -> String { paint(text, colors.number) }
    private func value(_ text: String) -> String { paint(text, colors.string) }
    private func emphasis(_ text: String) -> String { paint(text, colors.emphasis) }
}
