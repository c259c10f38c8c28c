import CCurlShim

/// What a handle must keep alive while libcurl may use it: the resolve list until the transfer
/// ends, and every trust hook for as long as its connections may be reused.
final class TransferResources {
    /// The CURLOPT_RESOLVE list of the current transfer.
    var resolveList: CurlStringList?
    /// The CURLOPT_CONNECT_TO list of the current transfer.
    var connectToList: CurlStringList?
    /// The trust hook of the current transfer.
    var trustHook: TrustHook?
    /// Hooks of earlier transfers: a kept-alive connection's SSL context still points at its hook
    /// (a TLS 1.2 renegotiation would run it again).
    var retiredTrustHooks: [TrustHook] = []
    /// An HSTS file found missing by an earlier transfer on this handle: a plain-http transfer
    /// then skips the `access` call (a batch would make one per request). Forgotten once this
    /// handle creates the file.
    var absentHSTSFile: String?
    /// The HSTS file the handle's own cache (not a share's) has read; nil for a handle whose
    /// `CURL *` has none yet.
    var loadedHSTSFile: String?
    /// The HSTS file named to libcurl for the current transfer, which reads it when the transfer
    /// starts: once the transfer ran, the cache it used holds the file (`EasyHandle.endTransfer`).
    var namedHSTSFile: String?

    /// Moves the current hook aside and drops the resolve list, after a transfer.
    func endTransfer() {
        namedHSTSFile = nil
        if let trustHook { retiredTrustHooks.append(trustHook) }
        trustHook = nil
        resolveList = nil
        connectToList = nil
    }
}

/// An owned `curl_slist`, freed with its owner.
final class CurlStringList {
    /// The list's head, or nil for an empty list.
    let head: UnsafeMutablePointer<curl_slist>?

    /// Builds the list from `items`; throws when out of memory.
    init(_ items: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for item in items {
            guard let extended = afcurl_slist_append(list, item) else {
                afcurl_slist_free_all(list)
                throw CurlError(kind: .other, code: Int(CURLE_OUT_OF_MEMORY.rawValue), description: "out of memory")
            }
            list = extended
        }
        head = list
    }

    deinit {
        afcurl_slist_free_all(head)
    }
}

extension EasyHandle {
    /// Sets certificate verification, trust anchors, pinning, client certificates and the minimum
    /// TLS version for a transfer to `url`.
    func configureTLS(_ tls: TLSOptions, url: String) throws(CurlError) {
        transferResources.trustHook = try TLSConfigurator.apply(tls, url: url, to: rawHandle, recordsChain: false)
    }

    /// Sets CURLOPT_RESOLVE entries (`HOST:PORT:ADDRESS`) for the transfer.
    func configureResolve(_ entries: [String]) throws(CurlError) {
        guard !entries.isEmpty else { return }
        let list = try CurlStringList(entries)
        transferResources.resolveList = list
        try check(afcurl_setopt_slist(rawHandle, CURLOPT_RESOLVE, list.head), "the --resolve list")
    }

    /// The error for a failed transfer: TLS failures are named and carry their host.
    func transferError(code: CURLcode, message: String, request: TransferRequest) -> CurlError {
        TLSFailureClassifier.error(
            code: code, message: message, handle: rawHandle, hook: transferResources.trustHook,
            tls: request.options.tls, url: request.url)
    }
}

/// Applies `TLSOptions` to a libcurl handle; shared by transfers and connection probes.
enum TLSConfigurator {
    /// Sets every TLS option; returns the trust hook that must stay alive with the handle, if one
    /// was needed (chain-wide pins, or `recordsChain` for `afcli pin`).
    static func apply(
        _ tls: TLSOptions, url: String, to handle: UnsafeMutableRawPointer, recordsChain: Bool
    ) throws(CurlError) -> TrustHook? {
        if tls.isPinning, let parsed = CurlURL(url), parsed.scheme != "https" {
            // Pins mean nothing over plain http (AF: a configuration error); a redirect there is refused.
            let failure = TLSFailure(reason: .pinningNeedsHTTPS, host: parsed.host)
            throw CurlError(kind: .tls, description: failure.message, tlsFailure: failure)
        }
        try setLong(handle, CURLOPT_SSL_VERIFYPEER, tls.verifyPeer ? 1 : 0)
        try setLong(handle, CURLOPT_SSL_VERIFYHOST, tls.verifyHost ? 2 : 0)
        if let pem = tls.trustedCertificatesPEM {
            // The pinned certificates replace the system store, file and directory alike.
            let code = afcurl_setopt_ca_blob(handle, pem, pem.utf8.count)
            try check(code, "the pinned certificates")
            try setString(handle, CURLOPT_CAINFO, nil, "CA bundle")
            try setString(handle, CURLOPT_CAPATH, nil, "CA directory")
        } else if tls.caFile != nil || tls.caPath != nil {
            // Debian's libcurl has both a default bundle and a default directory; a CA given by
            // the user replaces both, or the system's CAs would still be trusted.
            try setString(handle, CURLOPT_CAINFO, tls.caFile, "CA bundle")
            try setString(handle, CURLOPT_CAPATH, tls.caPath, "CA directory")
        }
        if let version = tls.minimumVersion {
            let value = version == .tls13 ? CURL_SSLVERSION_TLSv1_3 : CURL_SSLVERSION_TLSv1_2
            try setLong(handle, CURLOPT_SSLVERSION, Int(value))
        }
        if let certificate = tls.clientCertificate {
            try setString(handle, CURLOPT_SSLCERT, certificate, "client certificate")
        }
        if let key = tls.clientKey { try setString(handle, CURLOPT_SSLKEY, key, "client key") }
        return try applyPins(tls, to: handle, recordsChain: recordsChain)
    }

    /// Installs the trust hook for chain-wide pins, or falls back to libcurl's leaf-only
    /// CURLOPT_PINNEDPUBLICKEY when the hook cannot run with this libcurl.
    private static func applyPins(
        _ tls: TLSOptions, to handle: UnsafeMutableRawPointer, recordsChain: Bool
    ) throws(CurlError) -> TrustHook? {
        let chainPins = !tls.pinnedKeyDigests.isEmpty || !tls.pinnedCertificateDigests.isEmpty
        if (chainPins || recordsChain) && TrustHook.isSupported {
            guard let hook = TrustHook(tls: tls) else {
                throw CurlError(kind: .other, code: Int(CURLE_OUT_OF_MEMORY.rawValue), description: "out of memory")
            }
            try hook.install(on: handle)
            return hook
        }
        if let pinned = tls.pinnedPublicKey {
            try setString(handle, CURLOPT_PINNEDPUBLICKEY, pinned, "public key pinning")
        }
        return nil
    }

    /// Sets a `long` option.
    private static func setLong(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) throws(CurlError)
    {
        try check(afcurl_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    /// Sets a string option, or clears it (back to no value, not to libcurl's default) with nil.
    private static func setString(
        _ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String?, _ what: String
    ) throws(CurlError) {
        let code: CURLcode
        if let value {
            code = afcurl_setopt_string(handle, option, value)
        } else {
            code = afcurl_setopt_string(handle, option, nil)
        }
        try check(code, what)
    }

    /// Turns a rejected option into a `CurlError` naming it.
    private static func check(_ code: CURLcode, _ what: @autoclosure () -> String) throws(CurlError) {
        guard code == CURLE_OK else { throw CurlError.setup("could not set \(what())", code: code) }
    }
}
