/// Where and how a transfer connects: address family, routing overrides, local interface, receive
/// rate, body framing and the HSTS cache. Plain data, applied to the handle in one place
/// (`EasyHandle.configureNetwork`), so that a printer of the equivalent curl command line can map
/// the same values to curl's flags.
package struct NetworkOptions: Equatable, Sendable {
    /// `HOST1:PORT1:HOST2:PORT2` entries: connect to HOST2:PORT2 whenever the URL names HOST1:PORT1
    /// (CURLOPT_CONNECT_TO, curl's `--connect-to`); the URL, Host and TLS name keep HOST1.
    package var connectTo: [String] = []
    /// Which address family names may resolve to (`-4`, `-6`).
    package var addressFamily: AddressFamily = .any
    /// A Unix domain socket to connect to instead of TCP (CURLOPT_UNIX_SOCKET_PATH).
    package var unixSocket: String?
    /// The local interface name, address or host to send from (CURLOPT_INTERFACE).
    package var interface: String?
    /// The most response bytes received per second, averaged over the transfer
    /// (CURLOPT_MAX_RECV_SPEED_LARGE, curl's `--limit-rate`); nil for no limit.
    package var maxReceiveRate: Int64?
    /// Whether a request body is sent with `Transfer-Encoding: chunked` even when its length is known.
    package var chunked = false
    /// The HSTS cache file libcurl reads and writes (CURLOPT_HSTS); nil turns HSTS off.
    package var hstsFile: String?

    package init() {}
}

/// The address family host names may resolve to.
package enum AddressFamily: String, Equatable, Sendable {
    /// IPv4 or IPv6, whichever libcurl reaches first.
    case any
    /// IPv4 only (`-4`, `--ipv4`).
    case ipv4
    /// IPv6 only (`-6`, `--ipv6`).
    case ipv6
}
