import CCurlShim

/// What connecting to a server took, without any HTTP exchange.
package struct ConnectionReport: Sendable {
    /// The address connected to.
    package var address: String?
    /// The port connected to.
    package var port: Int?
    /// Seconds from the start until the TCP connection was established (name resolution
    /// included, which is nothing for an address or a `--resolve` entry).
    package var connectSeconds: Double
    /// Seconds from the start until the TLS handshake was done; nil for plain TCP.
    package var handshakeSeconds: Double?
    /// The server's chain, leaf first, when it was recorded (https, OpenSSL backend).
    package var chain: [PeerCertificate]
    /// Whether `chain` is the verified chain up to its anchor rather than the chain as sent.
    package var chainIsVerified: Bool
    /// OpenSSL's words for why the chain did not verify (possible when verification is off).
    package var verificationProblem: String?
}

/// Connects (TCP, plus TLS for https URLs) with libcurl's CONNECT_ONLY and sends nothing else:
/// the `pin` command reads the server's chain this way, and `reachability --probe` times it.
package enum ConnectionProbe {
    /// Connects to the URL's host and port with the given TLS settings and resolve entries;
    /// throws the same `CurlError`s (and TLS failures) a request would.
    package static func connect(url: String, options: TransferOptions) throws(CurlError) -> ConnectionReport {
        let (report, failure) = try attempt(url: url, options: options)
        if let failure { throw failure }
        return report
    }

    /// Like `connect`, but a failed connection still returns what was measured (a TCP connect
    /// time when only the TLS handshake failed) beside the error.
    package static func probe(url: String, options: TransferOptions) -> (report: ConnectionReport, error: CurlError?) {
        do {
            return try attempt(url: url, options: options)
        } catch {
            let empty = ConnectionReport(
                address: nil, port: nil, connectSeconds: 0, handshakeSeconds: nil, chain: [], chainIsVerified: false,
                verificationProblem: nil)
            return (empty, error)
        }
    }

    /// Performs the connect-only transfer; setup errors are thrown, a failed connection is returned.
    private static func attempt(
        url: String, options: TransferOptions
    ) throws(CurlError) -> (ConnectionReport, CurlError?) {
        let initCode = afcurl_global_init()
        guard initCode == CURLE_OK else { throw CurlError.setup("could not initialise libcurl", code: initCode) }
        guard let handle = afcurl_easy_init() else {
            throw CurlError(kind: .other, description: "could not create a libcurl handle")
        }
        defer { afcurl_easy_cleanup(handle) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        try check(afcurl_setopt_string(handle, CURLOPT_URL, url), "the URL")
        try check(afcurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"), "protocols")
        try check(afcurl_setopt_long(handle, CURLOPT_CONNECT_ONLY, 1), "connect-only")
        try check(afcurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "no signals")
        try check(afcurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "error buffer")
        // nil leaves libcurl reading the proxy environment; "" (reachability probes) means none.
        if let proxy = options.proxy { try check(afcurl_setopt_string(handle, CURLOPT_PROXY, proxy), "proxy") }
        let seconds = options.connectTimeout ?? options.totalTimeout ?? 30
        try check(afcurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(seconds * 1000)), "connect timeout")
        try check(afcurl_setopt_xferinfo_function(handle, probeProgress), "progress function")
        try check(afcurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0), "progress")
        let resolve = try CurlStringList(options.resolve)
        if resolve.head != nil {
            try check(afcurl_setopt_slist(handle, CURLOPT_RESOLVE, resolve.head), "the --resolve list")
        }
        let hook = try TLSConfigurator.apply(options.tls, url: url, to: handle, recordsChain: true)

        let code = withExtendedLifetime(resolve) { afcurl_easy_perform(handle) }
        if afcurl_interrupted() != 0 {
            throw CurlError.interrupted(signal: afcurl_interrupt_signal())
        }
        let report = report(handle: handle, hook: hook, isTLS: CurlURL(url)?.scheme == "https")
        guard code == CURLE_OK else {
            let error = TLSFailureClassifier.error(
                code: code, message: String(cString: errorBuffer), handle: handle, hook: hook, tls: options.tls,
                url: url)
            return (report, error)
        }
        return (report, nil)
    }

    /// Reads addresses, timings and the recorded chain after a successful connect.
    private static func report(handle: UnsafeMutableRawPointer, hook: TrustHook?, isTLS: Bool) -> ConnectionReport {
        var connect: curl_off_t = 0
        _ = afcurl_getinfo_off(handle, CURLINFO_CONNECT_TIME_T, &connect)
        var handshake: curl_off_t = 0
        _ = afcurl_getinfo_off(handle, CURLINFO_APPCONNECT_TIME_T, &handshake)
        var port = 0
        _ = afcurl_getinfo_long(handle, CURLINFO_PRIMARY_PORT, &port)
        var address: UnsafePointer<CChar>?
        _ = afcurl_getinfo_string(handle, CURLINFO_PRIMARY_IP, &address)
        let verifyError = hook?.verifyError ?? 0
        return ConnectionReport(
            address: address.map { String(cString: $0) }, port: port > 0 ? port : nil,
            connectSeconds: Double(connect) / 1_000_000,
            handshakeSeconds: isTLS ? Double(handshake) / 1_000_000 : nil, chain: hook?.chain ?? [],
            chainIsVerified: hook?.chainIsVerified ?? false,
            verificationProblem: verifyError == 0 ? nil : String(cString: afcurl_x509_error_string(verifyError)))
    }

    /// Turns a rejected option into a `CurlError`.
    private static func check(_ code: CURLcode, _ what: String) throws(CurlError) {
        guard code == CURLE_OK else { throw CurlError.setup("could not set \(what)", code: code) }
    }
}

/// Stops a probe when SIGINT or SIGTERM arrives (a connect can take the whole timeout).
private let probeProgress: curl_xferinfo_callback = { _, _, _, _, _ in
    afcurl_interrupted() != 0 ? 1 : 0
}
