import AFCurl

/// The handshake behind `afcli pin`: a TLS connection without an HTTP request that reports the
/// server's certificate chain, as `ReachabilityProbe` is the connection behind `--probe`.
package enum CertificateChainProbe {
    /// The host of `url` when it is an https URL libcurl accepts, else nil (bad input).
    package static func httpsHost(of url: String) -> String? {
        guard let parsed = CurlURL(url), parsed.scheme == "https" else { return nil }
        return parsed.host
    }

    /// Connects to `url` with the request's TLS settings, timeouts, `--resolve` entries and
    /// proxy (an http-only proxy does not apply); throws the transfer's error when the handshake
    /// or trust evaluation fails.
    package static func connect(
        url: String, tls: TLSOptions, connectTimeout: Double?, timeout: Double?, proxy: String?, resolve: [String]
    ) throws(CurlError) -> ConnectionReport {
        var transfer = TransferOptions(connectTimeout: connectTimeout, totalTimeout: timeout, tls: tls, resolve: resolve)
        if let proxy { transfer.proxy = proxy }
        return try ConnectionProbe.connect(url: url, options: transfer)
    }
}
