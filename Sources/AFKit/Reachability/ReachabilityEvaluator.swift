import Glibc

/// Answers "could traffic reach this target, and how" without sending a packet (spec §7).
///
/// AF asks SCNetworkReachability; on Linux the honest equivalent is: resolve the name (every
/// address family), ask the kernel which route each address would take (a UDP socket's
/// `connect` picks a route and a source address and sends nothing), and look at the interface
/// that owns the source address: its flags from getifaddrs and its kind from sysfs.
package struct ReachabilityEvaluator: Sendable {
    /// `HOST:PORT:ADDRESS[,ADDRESS]` entries that replace name resolution, as `--resolve` gives.
    package var resolveEntries: [String]
    /// Where interface kinds are read from (a test may point elsewhere).
    package var sysfsRoot: String

    /// Destinations whose routes stand for "any route off this machine": documentation
    /// addresses (RFC 5737, RFC 3849) that only a default route covers. Nothing is sent to them.
    static let anyRouteDestinations = [("198.51.100.1", 0), ("2001:db8::1", 0)]

    package init(resolveEntries: [String] = [], sysfsRoot: String = InterfaceKindReader.defaultRoot) {
        self.resolveEntries = resolveEntries
        self.sysfsRoot = sysfsRoot
    }

    /// Evaluates the target once.
    package func evaluate(_ target: ReachabilityTarget) -> ReachabilityReport {
        let destinations: [SocketAddress]
        var resolutionError: String?
        switch target {
        case .anyRoute:
            destinations = Self.anyRouteDestinations.compactMap { SocketAddress(numeric: $0.0, port: $0.1) }
        case .host(let name, let port, _):
            switch resolve(name, port: port) {
            case .success(let addresses): destinations = addresses
            case .failure(let error):
                destinations = []
                resolutionError = error.reason
            }
        }
        let interfaces = NetworkInterfaces.snapshot(sysfsRoot: sysfsRoot)
        let routes = destinations.map { route(to: $0, interfaces: interfaces) }
        let status: ReachabilityStatus = routes.contains(where: \.isUsable) ? .reachable : .notReachable
        return ReachabilityReport(target: target, status: status, routes: routes, resolutionError: resolutionError)
    }

    /// The route to one address: a UDP `connect` (no packet) gives the source address, whose
    /// owner is the interface; an interface that is down or has no carrier makes it unusable.
    func route(to destination: SocketAddress, interfaces: [NetworkInterface]) -> RouteReport {
        switch RouteLookup.sourceAddress(toward: destination) {
        case .failure(let error):
            return RouteReport(destination: destination, source: nil, interface: nil, problem: error.reason)
        case .success(let source):
            let owner = NetworkInterfaces.owner(of: source, in: interfaces)
            var problem: String?
            if let owner, !owner.isUp {
                problem = "\(owner.name) is down"
            } else if let owner, !owner.isRunning {
                problem = "\(owner.name) has no carrier"
            }
            return RouteReport(destination: destination, source: source.withoutPort, interface: owner, problem: problem)
        }
    }

    /// A resolution failure in the resolver's words.
    struct ResolutionError: ClassifiedError {
        let reason: String
        /// Reported as "not reachable" (exit 1), never thrown to the command.
        var failureClass: FailureClass { .failure }
    }

    /// The addresses of `name`: from a matching `--resolve` entry, else getaddrinfo for every
    /// family, deduplicated, in the resolver's order (the order a client tries them in).
    func resolve(_ name: String, port: Int) -> Result<[SocketAddress], ResolutionError> {
        if let mapped = Self.resolveEntryAddresses(for: name, port: port, entries: resolveEntries) {
            let addresses = mapped.compactMap { SocketAddress(numeric: $0, port: port) }
            guard !addresses.isEmpty else { return .failure(ResolutionError(reason: "bad --resolve address")) }
            return .success(addresses)
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let result = getaddrinfo(name, String(port), &hints, &list)
        guard result == 0 else {
            let text = gai_strerror(result).map { String(cString: $0) } ?? "error \(result)"
            return .failure(ResolutionError(reason: "could not resolve \(name): " + SystemError.lowercasingFirstLetter(text)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var cursor = list
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            guard let raw = entry.pointee.ai_addr, let address = SocketAddress(raw, length: entry.pointee.ai_addrlen),
                !addresses.contains(address)
            else { continue }
            addresses.append(address)
        }
        return .success(addresses)
    }

    /// The addresses a `HOST:PORT:ADDRESS[,ADDRESS…]` entry gives `name` and `port`, as
    /// libcurl's CURLOPT_RESOLVE would (host compared without case, `*` for any port is not
    /// libcurl's and not accepted); nil when no entry matches. IPv6 addresses may be bracketed.
    static func resolveEntryAddresses(for name: String, port: Int, entries: [String]) -> [String]? {
        for entry in entries.reversed() {
            let entry = entry.hasPrefix("+") ? String(entry.dropFirst()) : entry
            guard let firstColon = entry.firstIndex(of: ":") else { continue }
            let host = entry[..<firstColon]
            let rest = entry[entry.index(after: firstColon)...]
            guard let secondColon = rest.firstIndex(of: ":") else { continue }
            guard Int(rest[..<secondColon]) == port, host.lowercased() == name.lowercased() else { continue }
            let addresses = rest[rest.index(after: secondColon)...].split(separator: ",").map { address in
                address.hasPrefix("[") && address.hasSuffix("]")
                    ? String(address.dropFirst().dropLast()) : String(address)
            }
            return addresses
        }
        return nil
    }
}

/// The kernel's route choice for a destination, made with a connected UDP socket.
enum RouteLookup {
    /// Why the kernel has no route (`network is unreachable`).
    struct Failure: ClassifiedError {
        let reason: String
        /// Reported as "not reachable" (exit 1), never thrown to the command.
        var failureClass: FailureClass { .failure }
    }

    /// The source address the kernel picks for `destination`. `connect` on a UDP socket only
    /// selects a route and a local address; no packet leaves the machine.
    static func sourceAddress(toward destination: SocketAddress) -> Result<SocketAddress, Failure> {
        let family = destination.family == .ipv4 ? AF_INET : AF_INET6
        let descriptor = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(Failure(reason: SystemError.message(errno))) }
        defer { close(descriptor) }
        // Port 0 is refused by connect on some kernels; any port will do, nothing is sent.
        let target =
            destination.port == 0 ? SocketAddress(numeric: destination.host, port: 9) ?? destination : destination
        let connected = target.withSockaddr { address, length in connect(descriptor, address, length) }
        guard connected == 0 else { return .failure(Failure(reason: SystemError.message(errno))) }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return .failure(Failure(reason: SystemError.message(errno))) }
        let source = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
        }
        guard let source else { return .failure(Failure(reason: "no source address")) }
        return .success(source)
    }
}
