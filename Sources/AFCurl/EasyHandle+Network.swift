import CCurlShim
import Glibc

extension EasyHandle {
    /// Sets CURLOPT_HTTP_VERSION. `automatic` asks for libcurl's own default explicitly (HTTP/2
    /// over TLS when ALPN agrees, HTTP/1.1 otherwise), so the choice does not depend on the
    /// libcurl build's default.
    func configureHTTPVersion(_ version: HTTPVersionPreference) throws(CurlError) {
        switch version {
        case .automatic: try setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        case .http1_1: try setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        case .http2: try setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_0)
        case .http2PriorKnowledge: try setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        case .http3:
            guard EasyHandle.supportsHTTP3 else { throw CurlError.http3Unsupported }
            try setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_3)
        }
    }

    /// Whether this libcurl was built with HTTP/3.
    package static var supportsHTTP3: Bool { afcurl_supports_http3() != 0 }

    /// Applies every `NetworkOptions` setting to the freshly reset handle, for a transfer to `url`.
    func configureNetwork(_ network: NetworkOptions, url: String) throws(CurlError) {
        if !network.connectTo.isEmpty {
            let list = try CurlStringList(network.connectTo)
            transferResources.connectToList = list
            try check(afcurl_setopt_slist(rawHandle, CURLOPT_CONNECT_TO, list.head), "the --connect-to list")
        }
        switch network.addressFamily {
        case .any: break
        case .ipv4: try setLong(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V4))
        case .ipv6: try setLong(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V6))
        }
        if let path = network.unixSocket { try setString(CURLOPT_UNIX_SOCKET_PATH, path, "the Unix socket path") }
        if let name = network.interface { try setString(CURLOPT_INTERFACE, name, "the interface") }
        if let rate = network.maxReceiveRate {
            try check(afcurl_setopt_off(rawHandle, CURLOPT_MAX_RECV_SPEED_LARGE, curl_off_t(rate)), "the rate limit")
            // libcurl 7.x checks the rate only between rounds of up to 100 reads of one buffer
            // each: with data already waiting (a fast or local server), one round of 100 KiB reads
            // drains the socket and the limit is never applied. Reads of a hundredth of the rate
            // make a round at most one second's worth.
            try setLong(CURLOPT_BUFFERSIZE, EasyHandle.rateLimitedBufferSize(rate))
        }
        if let file = network.hstsFile, needsHSTS(file: file, url: url) { try configureHSTS(file: file) }
    }

    /// Turns libcurl's HSTS cache on for this transfer, naming `file` only to a cache that has
    /// not read it: libcurl reads a named file when the transfer starts, into the run's shared
    /// cache when the handle is attached to one (`TransferShare`), else into the handle's own,
    /// which outlives `curl_easy_reset`. (Named on every transfer, the file was read on every
    /// transfer.)
    private func configureHSTS(file: String) throws(CurlError) {
        try setLong(CURLOPT_HSTS_CTRL, AFCURL_HSTS_ENABLE)
        guard hstsFileRead != file else { return }
        try setString(CURLOPT_HSTS, file, "the HSTS file")
        hstsFileRead = file
        transferResources.namedHSTSFile = file
    }

    /// The HSTS file the cache this handle's transfers use has read, or will read as the current
    /// transfer starts: the share's, else the handle's own.
    private var hstsFileRead: String? {
        get {
            if let share = cookieShare, share.sharesHSTS { return share.hstsFile }
            return transferResources.loadedHSTSFile
        }
        set {
            if let share = cookieShare, share.sharesHSTS {
                share.hstsFile = newValue
            } else {
                transferResources.loadedHSTSFile = newValue
            }
        }
    }

    /// After a transfer that never started: the file named for it was not read.
    func forgetUnreadHSTSFile() {
        if let file = transferResources.namedHSTSFile, hstsFileRead == file { hstsFileRead = nil }
    }

    /// The receive buffer for a rate-limited transfer: a hundredth of the rate, within libcurl's
    /// minimum of 1024 bytes and afcli's usual buffer.
    static func rateLimitedBufferSize(_ rate: Int64) -> Int {
        Int(min(max(rate / 100, 1024), Int64(EasyHandle.receiveBufferSize)))
    }

    /// Whether libcurl's HSTS engine has work to do: the cache exists (an http:// URL may be
    /// upgraded), or the URL is https (a response may set a policy). A plain http request with no
    /// cache costs one `access` call and leaves no file behind.
    static func needsHSTS(file: String, url: String) -> Bool {
        access(file, F_OK) == 0 || EasyHandle.isHTTPS(url)
    }

    /// `needsHSTS(file:url:)`, remembering a missing file for the next transfers on this handle.
    private func needsHSTS(file: String, url: String) -> Bool {
        // A cache that read the file also holds what the run's https responses set since.
        if EasyHandle.isHTTPS(url) || hstsFileRead == file { return true }
        if transferResources.absentHSTSFile == file { return false }
        guard access(file, F_OK) == 0 else {
            transferResources.absentHSTSFile = file
            return false
        }
        return true
    }

    /// Whether `url` starts with `https:` (in any case).
    static func isHTTPS(_ url: String) -> Bool {
        // One iterator of a concrete type: a zip of two views would be a generic type that the
        // runtime instantiates (searching every conformance) at its first use.
        var bytes = url.utf8.makeIterator()
        for letter in "https".utf8 {
            // `| 0x20` lower-cases the letters.
            guard let byte = bytes.next(), byte | 0x20 == letter else { return false }
        }
        return bytes.next() == UInt8(ascii: ":")
    }

    /// After an https response that set a policy, makes sure the HSTS file's directory exists
    /// (0700, parents included) and the file too (0600), so libcurl can save its cache when the
    /// handle is cleaned up;
    /// directories are created only then, never for a request that has nothing to remember.
    func prepareHSTSDirectory(_ network: NetworkOptions, url: String, head: ResponseHead?) {
        guard let file = network.hstsFile, EasyHandle.isHTTPS(url),
            head?.value(for: "Strict-Transport-Security") != nil
        else { return }
        EasyHandle.makeDirectories(String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)]))
        // libcurl saves through a temporary file whose mode is 0600 plus the old file's: an empty
        // 0600 file now keeps the list of visited hosts private (a link is never followed).
        transferResources.absentHSTSFile = nil
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    /// `mkdir -p` with mode 0700 for every directory it creates; failures are left to libcurl,
    /// which then cannot save (HSTS stays a best-effort cache, as in curl).
    static func makeDirectories(_ path: String) {
        guard !path.isEmpty, access(path, F_OK) != 0 else { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            makeDirectories(String(path[..<slash]))
        }
        _ = mkdir(path, 0o700)
    }
}
