import AFCurl

/// What `afcli reachability` is asked about: any route off this machine, or one host and port.
///
/// AF's `managerForDomain:` takes a host name and `manager` (a zero address) means "the
/// internet"; afcli adds a port, used only by `--probe`, and accepts a URL for convenience.
package enum ReachabilityTarget: Equatable, Sendable {
    /// Any route off this machine: the default routes, IPv4 and IPv6.
    case anyRoute
    /// One host (a name or an address literal without brackets) and port.
    case host(name: String, port: Int, usesTLS: Bool)

    /// The port a bare host name gets: HTTPS, the port a client of afcli would most likely use.
    package static let defaultPort = 443

    /// Parses `HOST`, `HOST:PORT`, `[IPV6]:PORT`, a bare IPv6 address, or an `http(s)://` URL;
    /// nil (no argument) means any route.
    package static func parse(_ text: String?) throws(ReachabilityError) -> ReachabilityTarget {
        guard let text else { return .anyRoute }
        guard !text.isEmpty else { throw .invalidTarget(text, reason: "is empty") }
        if text.contains("://") {
            guard let url = CurlURL(text), url.scheme == "http" || url.scheme == "https" else {
                throw .invalidTarget(text, reason: "is not an http or https URL")
            }
            return .host(name: unbracketed(url.host), port: url.port, usesTLS: url.scheme == "https")
        }
        var host = Substring(text)
        var port = defaultPort
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw .invalidTarget(text, reason: "has no closing ]") }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw .invalidTarget(text, reason: "has text after ]") }
                port = try parsePort(String(rest.dropFirst()), in: text)
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            port = try parsePort(String(host[host.index(after: colon)...]), in: text)
            host = host[..<colon]
        }
        guard !host.isEmpty, host.allSatisfy(isHostCharacter) else {
            throw .invalidTarget(text, reason: "is not a host name or address")
        }
        return .host(name: String(host), port: port, usesTLS: port == 443)
    }

    /// The host, or nil for any route.
    package var hostName: String? {
        if case .host(let name, _, _) = self { return name }
        return nil
    }

    /// The port, or nil for any route.
    package var port: Int? {
        if case .host(_, let port, _) = self { return port }
        return nil
    }

    /// `example.com:443`, `[::1]:8443`, or `any route`.
    package var label: String {
        guard case .host(let name, let port, _) = self else { return "any route" }
        return (name.contains(":") ? "[\(name)]" : name) + ":\(port)"
    }

    /// A decimal port from 1 to 65535.
    private static func parsePort(_ text: String, in target: String) throws(ReachabilityError) -> Int {
        guard !text.isEmpty, text.count <= 5, text.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(text),
            (1...65535).contains(port)
        else { throw .invalidTarget(target, reason: "has an invalid port \"\(text)\"") }
        return port
    }

    /// Letters, digits, `-`, `.`, `_`, and `:`/`%` for IPv6 literals with a zone.
    private static func isHostCharacter(_ character: Character) -> Bool {
        guard character.isASCII else { return true }
        return character.isLetter || character.isNumber || "-._:%".contains(character)
    }

    /// An IPv6 host as libcurl prints it (`[::1]`) without its brackets.
    private static func unbracketed(_ host: String) -> String {
        guard host.hasPrefix("["), host.hasSuffix("]") else { return host }
        return String(host.dropFirst().dropLast())
    }
}

/// Bad input to `afcli reachability` (exit status 2).
package enum ReachabilityError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// The target argument cannot be parsed; `reason` is a predicate.
    case invalidTarget(String, reason: String)
    /// `--probe` without a host to probe.
    case probeNeedsHost

    /// A target or option that cannot be used; nothing is probed.
    package var failureClass: FailureClass { .badInput }

    package var description: String {
        switch self {
        case .invalidTarget(let text, let reason):
            return "reachability: \"\(text)\" \(reason)"
        case .probeNeedsHost:
            return "reachability: --probe needs a host (afcli reachability --probe HOST[:PORT])"
        }
    }
}
