import AFKit

extension OptionTable {
    /// HTTP versions, routing, address family, request body framing, receive rate and HSTS.
    static let networkRouting: [OptionSpec] = [
        versionSwitch(
            scope: .sending, .http1_1, help: "use HTTP/1.1 only",
            description: "Use HTTP/1.1 only, even where HTTP/2 could be negotiated. Without a version option "
                + "afcli asks for HTTP/2 over TLS (ALPN) and HTTP/1.1 in clear text, as curl does."),
        versionSwitch(
            scope: .sending, .http2, help: "ask for HTTP/2 (h2c upgrade on http)",
            description: "Ask for HTTP/2: over TLS through ALPN (the default anyway), and on http:// URLs "
                + "with an Upgrade: h2c request, falling back to HTTP/1.1 when the server declines."),
        versionSwitch(
            scope: .sending, .http2PriorKnowledge, help: "speak HTTP/2 at once, without upgrade",
            description: "Speak HTTP/2 from the first byte, without ALPN or Upgrade (h2c prior knowledge), "
                + "for servers known to accept it; a server that does not fails the request."),
        versionSwitch(
            scope: .sending, .http3, help: "ask for HTTP/3 (when libcurl has it)",
            description: "Ask for HTTP/3 over QUIC, falling back to HTTP/2 or HTTP/1.1. It is refused (exit "
                + "status 2) when the libcurl afcli runs on was built without HTTP/3."),
        OptionSpec(
            long: "connect-to", scope: .sending, valueName: "H1:P1:H2:P2", group: .network,
            help: "connect to H2:P2 for H1:P1 (repeat)",
            description: "Connect to host H2 and port P2 whenever the URL names host H1 and port P1, as "
                + "curl's --connect-to does (an empty part matches any host or port, or keeps the URL's; "
                + "IPv6 addresses in brackets). The URL, the Host header, the TLS server name and "
                + "certificate checks keep H1.",
            apply: { values, text in values.transfer.connectTo.append(try NetworkOptionParser.connectTo(text ?? "")) },
            reset: { $0.transfer.connectTo = [] }),
        addressFamilySwitch(.ipv4, scope: .sending, short: "4", help: "resolve names to IPv4 addresses only"),
        addressFamilySwitch(.ipv6, scope: .sending, short: "6", help: "resolve names to IPv6 addresses only"),
        OptionSpec(
            long: "unix-socket", scope: .sending, valueName: "PATH", group: .network,
            help: "connect through the Unix socket PATH",
            description: "Connect to the Unix domain socket PATH instead of the URL's host and port. The "
                + "URL still gives the Host header and the path; https works over the socket too.",
            completion: .file,
            apply: { values, text in
                values.transfer.unixSocket = try OptionValueParser.nonEmpty(text ?? "", what: "a socket path")
            },
            reset: { $0.transfer.unixSocket = nil }),
        OptionSpec(
            long: "interface", scope: .sending, valueName: "NAME", group: .network,
            help: "send from interface, address or host NAME",
            description: "Send from the network interface NAME (eth0), the local address NAME or the "
                + "address of host NAME, as curl's --interface.",
            apply: { values, text in
                values.transfer.interface = try OptionValueParser.nonEmpty(text ?? "", what: "an interface")
            },
            reset: { $0.transfer.interface = nil }),
        OptionSpec(
            long: "noproxy", scope: .sending, valueName: "HOSTS", group: .network,
            help: "bypass the proxy for HOSTS (a,b; *)",
            description: "Connect directly to HOSTS, comma-separated (a name matches itself and its "
                + "subdomains; * means every host), instead of through --proxy or the proxy environment "
                + "variables. It overrides no_proxy and NO_PROXY.",
            apply: { values, text in values.transfer.noProxy = text ?? "" },
            reset: { $0.transfer.noProxy = nil }),
        OptionSpec(
            long: "compress", scope: [.request, .run], short: "x", group: .network, help: "deflate the request body",
            description: "Compress the request body with deflate (the zlib format) and send it with "
                + "Content-Encoding: deflate, as HTTPie's -x. A body built in memory (data items, --raw) "
                + "is compressed only when that makes it smaller; a file or standard input is compressed "
                + "as it is sent, without being held in memory, and so goes out chunked. A "
                + "Content-Encoding header given as an item turns it off.",
            apply: { values, _ in values.request.compress = true },
            reset: { $0.request.compress = false }),
        OptionSpec(
            long: "chunked", scope: [.request, .run], group: .network, help: "send the body with chunked encoding",
            description: "Send a request body with Transfer-Encoding: chunked instead of Content-Length, "
                + "even when its length is known. Bodies whose length is unknown (standard input, a "
                + "pipe) are always sent chunked over HTTP/1.1. HTTP/2 has no chunked encoding: there "
                + "the body is sent without a Content-Length.",
            apply: { values, _ in values.transfer.chunked = true },
            reset: { $0.transfer.chunked = false }),
        OptionSpec(
            long: "limit-rate", scope: .sending, valueName: "RATE", group: .network,
            help: "receive at most RATE bytes a second",
            description: "Receive the response at most RATE bytes per second on average (k, m and g mean "
                + "KiB, MiB and GiB: 100k), as curl's --limit-rate does for downloads; it applies to "
                + "afcli download too. --throttle paces uploads.",
            completion: .words(["100k", "1m"]),
            apply: { values, text in values.transfer.limitRate = try OptionValueParser.byteCount(text ?? "") },
            reset: { $0.transfer.limitRate = nil }),
        OptionSpec(
            long: "hsts", scope: .sending, group: .network, help: "remember and apply HSTS (on)",
            description: "Remember the Strict-Transport-Security policies of https sites in "
                + "$XDG_STATE_HOME/afcli/hsts.txt (else ~/.local/state/afcli/hsts.txt, libcurl's format) "
                + "and send http:// requests to those hosts over https; -v notes each upgrade, and an error "
                + "on an upgraded connection says it was upgraded. This is on by default; "
                + "--no-hsts neither reads nor writes the file.",
            apply: { values, _ in values.transfer.hsts = true },
            reset: { $0.transfer.hsts = false }),
    ]

    /// An HTTP version switch sharing the `transfer.httpVersion` destination; `--http3` is
    /// refused when libcurl lacks HTTP/3.
    static func versionSwitch(
        scope: CommandScope, _ version: Settings.HTTPVersion, help: String, description: String
    ) -> OptionSpec {
        OptionSpec(
            long: "http" + version.rawValue, scope: scope, group: .network, help: help,
            description: description + " The version options override each other.",
            apply: { values, _ in
                if version == .http3, !HTTPClient.supportsHTTP3 {
                    throw OptionValueError(
                        "libcurl \(HTTPClient.libcurlVersion) was built without HTTP/3, so afcli cannot use it")
                }
                values.transfer.httpVersion = version
            },
            reset: { values in if values.transfer.httpVersion == version { values.transfer.httpVersion = nil } })
    }

    /// `-4` or `-6`, sharing the `transfer.addressFamily` destination.
    private static func addressFamilySwitch(
        _ family: Settings.AddressFamily, scope: CommandScope, short: Character, help: String
    ) -> OptionSpec {
        OptionSpec(
            long: family.rawValue, scope: scope, short: short, group: .network, help: help,
            description: "Resolve host names to \(family == .ipv4 ? "IPv4" : "IPv6") addresses only, as "
                + "curl's -\(short). -4 and -6 override each other.",
            apply: { values, _ in values.transfer.addressFamily = family },
            reset: { values in if values.transfer.addressFamily == family { values.transfer.addressFamily = nil } })
    }
}

/// Checks the values of the network options.
enum NetworkOptionParser {
    /// `HOST1:PORT1:HOST2:PORT2` as curl's `--connect-to` takes it: four parts, any of them empty,
    /// hosts optionally in brackets (IPv6), ports decimal 1 to 65535.
    static func connectTo(_ text: String) throws(OptionValueError) -> String {
        let problem = OptionValueError(
            "is not HOST1:PORT1:HOST2:PORT2 (parts may be empty; IPv6 addresses in brackets)")
        var parts: [Substring] = []
        var rest = Substring(text)
        for index in 0..<4 {
            let isHost = index % 2 == 0
            if isHost, rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { throw problem }
                parts.append(rest[...close])
                rest = rest[rest.index(after: close)...]
                if index < 3 {
                    guard rest.hasPrefix(":") else { throw problem }
                    rest = rest.dropFirst()
                }
                continue
            }
            if index == 3 {
                parts.append(rest)
                rest = ""
            } else {
                guard let colon = rest.firstIndex(of: ":") else { throw problem }
                parts.append(rest[..<colon])
                rest = rest[rest.index(after: colon)...]
            }
        }
        guard rest.isEmpty else { throw problem }
        for port in [parts[1], parts[3]] where !port.isEmpty {
            guard port.allSatisfy({ $0 >= "0" && $0 <= "9" }), let number = Int(port), (1...65535).contains(number)
            else {
                throw problem
            }
        }
        for host in [parts[0], parts[2]] where host.contains(where: { $0 == " " || $0 == "/" }) {
            throw problem
        }
        return text
    }
}
