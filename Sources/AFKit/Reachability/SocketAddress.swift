import Glibc

/// An IPv4 or IPv6 socket address, as getaddrinfo and getsockname give them.
package struct SocketAddress: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The address family.
    package enum Family: String, Sendable {
        case ipv4
        case ipv6
    }

    /// The raw `sockaddr_in` or `sockaddr_in6` bytes.
    private let bytes: [UInt8]

    /// Copies a `sockaddr` of `length` bytes; nil unless it is AF_INET or AF_INET6.
    package init?(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        let family = Int32(address.pointee.sa_family)
        let expected = family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size
        guard family == AF_INET || family == AF_INET6, Int(length) >= expected else { return nil }
        bytes = Array(UnsafeRawBufferPointer(start: address, count: expected))
    }

    /// Parses a numeric IPv4 or IPv6 address (an IPv6 zone as `%name`), with a port.
    package init?(numeric text: String, port: Int) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(text, String(port), &hints, &list) == 0, let list else { return nil }
        defer { freeaddrinfo(list) }
        guard let address = list.pointee.ai_addr, let parsed = SocketAddress(address, length: list.pointee.ai_addrlen)
        else { return nil }
        self = parsed
    }

    /// The address family.
    package var family: Family {
        withSockaddr { address, _ in Int32(address.pointee.sa_family) == AF_INET ? .ipv4 : .ipv6 }
    }

    /// The address as text: `127.0.0.1`, `::1`, `fe80::1%eth0`.
    package var host: String {
        withSockaddr { address, length in
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let result = getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
            guard result == 0 else { return "?" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The port in host byte order.
    package var port: Int {
        withSockaddr { address, _ in
            let raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
            return Int(UInt16(bigEndian: raw))
        }
    }

    /// The same address without its port (so equal hosts compare equal).
    package var withoutPort: SocketAddress {
        var copy = bytes
        copy[2] = 0
        copy[3] = 0
        return SocketAddress(bytes: copy)
    }

    /// The host, bracketed when it is IPv6: what `--resolve` and URLs take.
    package var bracketedHost: String {
        family == .ipv6 ? "[\(host)]" : host
    }

    package var description: String { host }

    /// Calls `body` with the address as a `sockaddr` and its length.
    package func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        bytes.withUnsafeBytes { raw in
            let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            return body(address, socklen_t(raw.count))
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}
