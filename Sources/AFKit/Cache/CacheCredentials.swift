import Glibc

/// What libcurl adds to a request by itself and the cache key must still tell apart: the netrc
/// file (when the request has no credentials of its own), the cookies its cookie engine sends, and
/// a route that sends the request to another server than its URL names.
///
/// The cookie part is the cookies sent to the request's URL (libcurl's selection: domain, path,
/// secure, expiry), not the whole jar or session: a jar that gained a cookie for another site, or
/// a session that sends nothing to this one, still finds what this URL stored.
package struct CacheCredentials: Sendable {
    /// The netrc file's bytes, or its name when it cannot be read; empty without one.
    var netrc: [UInt8] = []
    /// The cookie engine's cookies as Netscape lines: the jar file's, then the session's.
    var cookieLines: [String] = []
    /// Where the request goes when not where its URL says (`--resolve`, `--connect-to`,
    /// `--unix-socket`): another server may answer differently, so the route is in the key.
    var route: [UInt8] = []
    /// The Cookie header a run's shared cookie engine sends to the request's URL (libcurl's own
    /// selection, cookies set earlier in the run included); nil outside a run or when none.
    package var engineCookies: String? = nil

    package init() {}

    /// The credentials `settings` make libcurl add: its netrc file and its cookie jar and lines.
    package init(_ settings: TransferSettings) {
        if let netrc = settings.netrcFile { self.netrc = Array("netrc\n".utf8) + (Self.smallFile(netrc) ?? Array(netrc.utf8)) }
        if let cookies = settings.cookies {
            if let file = cookies.file, let bytes = Self.smallFile(file) {
                cookieLines = bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
            }
            cookieLines += cookies.lines
        }
        let network = settings.network
        if !settings.resolve.isEmpty || !network.connectTo.isEmpty || network.unixSocket != nil {
            let parts = ["resolve"] + settings.resolve + ["connect-to"] + network.connectTo + [network.unixSocket ?? ""]
            route = Array(("\nroute: " + parts.joined(separator: "\u{0}")).utf8)
        }
    }

    /// What tells apart the credentials of two settings without reading any file: the netrc file's
    /// name and the route, for a run that keeps one value per distinct pair.
    package static func identity(_ settings: TransferSettings) -> String {
        let network = settings.network
        return ([settings.netrcFile ?? ""] + settings.resolve + ["|"] + network.connectTo + [network.unixSocket ?? ""])
            .joined(separator: "\u{0}")
    }

    /// The bytes hashed into the key of a request to `url` at `now`.
    package func material(for url: String, now: Double) -> [UInt8] {
        var material = netrc + route
        if !cookieLines.isEmpty,
            let sent = CurlCookieSelection.cookieHeader(lines: cookieLines, url: url, now: Int64(now))
        {
            material += Array("\ncookie-engine: \(sent)".utf8)
        }
        if let engineCookies { material += Array("\nrun-cookies: \(engineCookies)".utf8) }
        return material
    }

    /// A small file's bytes (netrc, cookie jar); nil when it cannot be read.
    private static func smallFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return try? FileDescriptorIO.readAll(descriptor, limit: 4 << 20)
    }
}
