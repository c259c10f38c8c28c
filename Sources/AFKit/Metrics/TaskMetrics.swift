/// One request's metrics in AFNetworking's shape (`NSURLSessionTaskMetrics`): the task's
/// interval, how many redirects it followed and one transaction record per hop.
///
/// afcli follows redirects itself, one libcurl transfer per hop, so each hop's `TransferMetrics`
/// is one of AF's `NSURLSessionTaskTransactionMetrics`. The same value feeds the metrics table
/// (`--print=m`), `--meta=json` and `--write-out`, for a single request or each request of a batch.
package struct TaskMetrics: Equatable, Sendable {
    /// The hops in order, the final one last; never empty.
    package var transactions: [TransferMetrics]

    /// Metrics of the given hops; nil when there are none (a transport that measured nothing).
    package init?(transactions: [TransferMetrics]) {
        guard !transactions.isEmpty else { return nil }
        self.transactions = transactions
    }

    /// The final hop, whose response the task ended with.
    package var final: TransferMetrics { transactions[transactions.count - 1] }

    /// Redirects followed (AF's `redirectCount`).
    package var redirectCount: Int { transactions.count - 1 }

    /// When the task started, in seconds since 1970: the first hop's start, less its queue time.
    package var startDate: Double { transactions[0].startDate - transactions[0].queue }

    /// Seconds from the task's start to the end of its final hop (AF's `taskInterval.duration`);
    /// includes the queue and the moments between hops.
    package var duration: Double {
        max(0, final.startDate + final.total - startDate)
    }

    /// The task seen the way curl's `--write-out` sees a transfer that followed redirects with
    /// `-L`: byte and connection counts summed over the hops (`size_header`, `size_request`,
    /// `num_connects`), body sizes, addresses and speeds of the final hop, `time_redirect` the
    /// hops before the final one, and the final hop's phase times counted from the task's start.
    package var combined: TransferMetrics {
        var result = final
        let earlier = transactions.dropLast()
        let redirect = earlier.reduce(0) { $0 + $1.total }
        result.redirect = redirect
        result.headerBytes = transactions.reduce(0) { $0 + $1.headerBytes }
        result.requestBytes = transactions.reduce(0) { $0 + $1.requestBytes }
        result.newConnections = transactions.reduce(0) { $0 + $1.newConnections }
        result.queue = transactions[0].queue
        guard redirect > 0 else { return result }
        // A phase the final hop did not go through (no TLS) stays 0, as curl prints it.
        func shifted(_ value: Double) -> Double { value > 0 ? value + redirect : 0 }
        result.nameLookup = shifted(final.nameLookup)
        result.connect = shifted(final.connect)
        result.appConnect = shifted(final.appConnect)
        result.preTransfer = shifted(final.preTransfer)
        result.startTransfer = shifted(final.startTransfer)
        result.total = final.total + redirect
        return result
    }
}

/// One hop's phases as durations, in the order they happen, for the metrics table.
package struct MetricsPhase: Equatable, Sendable {
    /// The phase's name as the table shows it.
    package var name: String
    /// Seconds the phase took; nil when it did not happen (no TLS on plain HTTP).
    package var duration: Double?
    /// Seconds from the hop's start to the phase's end; nil when it did not happen.
    package var end: Double?

    /// The phases of `metrics`: queue, DNS lookup, TCP connect, TLS handshake, request sent,
    /// first byte, and the body to its end. Durations are the differences of libcurl's cumulative
    /// times, so they always add up to the total.
    package static func phases(of metrics: TransferMetrics) -> [MetricsPhase] {
        var phases = [MetricsPhase(name: "queue", duration: metrics.queue, end: nil)]
        var previous = 0.0
        func add(_ name: String, _ time: Double, happened: Bool = true) {
            guard happened else {
                phases.append(MetricsPhase(name: name, duration: nil, end: nil))
                return
            }
            let end = max(time, previous)
            phases.append(MetricsPhase(name: name, duration: end - previous, end: end))
            previous = end
        }
        add("DNS lookup", metrics.nameLookup)
        add("TCP connect", metrics.connect)
        add("TLS handshake", metrics.appConnect, happened: metrics.appConnect > 0)
        add("request sent", metrics.preTransfer)
        add("first byte", metrics.startTransfer)
        add("body received", metrics.total)
        return phases
    }
}

/// Fixed-point decimal text without Foundation's formatters (kept off every run's path).
package enum DecimalText {
    /// `value` with exactly `digits` decimals, rounded half away from zero: curl's `%.6f` with 6.
    package static func fixed(_ value: Double, digits: Int = 6) -> String {
        guard value.isFinite else { return "0." + String(repeating: "0", count: digits) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e18 else { return String(value) }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        let whole = String(units / divisor)
        let fraction = String(units % divisor)
        let sign = value < 0 && units > 0 ? "-" : ""
        guard digits > 0 else { return sign + whole }
        return sign + whole + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
