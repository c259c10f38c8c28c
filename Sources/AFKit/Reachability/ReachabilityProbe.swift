import AFCurl

/// The active check behind `reachability --probe`: a TCP connect to the address a client would
/// use, plus a TLS handshake for https targets, timed by libcurl. Unlike the route lookup this
/// sends packets, and it is reported as a probe, never as AF's reachability status.
package enum ReachabilityProbe {
    /// Probes the report's primary route (else its first address); nil when there is no address.
    package static func run(
        _ report: ReachabilityReport, tls: TLSOptions, connectTimeout: Double?
    ) -> ProbeReport? {
        guard case .host(let name, let port, let usesTLS) = report.target,
            let destination = report.primaryRoute?.destination ?? report.routes.first?.destination
        else { return nil }
        let host = name.contains(":") ? "[\(name)]" : name
        let url = (usesTLS ? "https://" : "http://") + host + ":\(port)/"
        // The name maps to the very address the route lookup chose, so the probe cannot wander
        // to another one (and does not resolve the name a second time).
        let pin = "\(name):\(port):\(destination.bracketedHost)"
        let options = TransferOptions(
            connectTimeout: connectTimeout ?? 10, proxy: "", tls: tls,
            resolve: name.contains(":") ? [] : [pin])
        let (connection, error) = ConnectionProbe.probe(url: url, options: options)
        let connected = error == nil || error?.kind == .tls
        let address = connection.address.flatMap { $0.isEmpty ? nil : $0 } ?? destination.host
        // libcurl leaves the connect time at 0 when the handshake on top of it failed.
        let tcpSeconds = connected && connection.connectSeconds > 0 ? connection.connectSeconds : nil
        return ProbeReport(
            address: address, port: port, tcpSeconds: tcpSeconds,
            tlsSeconds: usesTLS && error == nil ? connection.handshakeSeconds : nil, triedTLS: usesTLS && connected,
            tcpError: connected ? nil : error?.description, tlsError: error?.kind == .tls ? error?.description : nil)
    }
}

/// An active connection attempt made for `--probe`, reported as such: packets were sent.
package struct ProbeReport: Equatable, Sendable {
    /// The address and port connected to.
    package var address: String
    package var port: Int
    /// Seconds until the TCP connection was established; nil when it was not, or when libcurl
    /// did not measure it (a failed handshake); `tcpError` tells which.
    package var tcpSeconds: Double?
    /// Seconds until the TLS handshake was done (from the start); nil when not attempted or failed.
    package var tlsSeconds: Double?
    /// Whether a TLS handshake was attempted.
    package var triedTLS: Bool
    /// Why the TCP connection failed, when it did.
    package var tcpError: String?
    /// Why the TLS handshake failed, when it did.
    package var tlsError: String?

    package init(
        address: String, port: Int, tcpSeconds: Double?, tlsSeconds: Double?, triedTLS: Bool, tcpError: String?,
        tlsError: String?
    ) {
        self.address = address
        self.port = port
        self.tcpSeconds = tcpSeconds
        self.tlsSeconds = tlsSeconds
        self.triedTLS = triedTLS
        self.tcpError = tcpError
        self.tlsError = tlsError
    }

    /// Whether the probe connected (and shook hands, when TLS was tried).
    package var succeeded: Bool { tcpError == nil && tlsError == nil }
}
