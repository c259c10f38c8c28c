/// AFNetworkReachabilityStatus, spelled for a command line.
package enum ReachabilityStatus: String, Equatable, Sendable, CaseIterable {
    /// Nothing is known yet (AF's -1): the status before the first answer.
    case unknown
    /// No route, or the route's interface is down (AF's 0).
    case notReachable = "not-reachable"
    /// A route exists through an interface that is up (AF's 1 or 2).
    case reachable
}

/// AF's status name and number for a status and the kind of interface it goes through: AF
/// reports WWAN for cellular links and WiFi for every other link, as iOS does.
package struct AFReachabilityStatus: Equatable, Sendable {
    /// `AFNetworkReachabilityStatusReachableViaWiFi` and so on, without the prefix.
    package var name: String
    /// The enum's raw value: -1, 0, 1 or 2.
    package var value: Int

    package init(status: ReachabilityStatus, kind: InterfaceKind?) {
        switch (status, kind) {
        case (.unknown, _): (name, value) = ("Unknown", -1)
        case (.notReachable, _): (name, value) = ("NotReachable", 0)
        case (.reachable, .wwan?): (name, value) = ("ReachableViaWWAN", 1)
        case (.reachable, _): (name, value) = ("ReachableViaWiFi", 2)
        }
    }
}

/// The route the kernel would take to one destination address, found without sending anything.
package struct RouteReport: Equatable, Sendable {
    /// The destination address.
    package var destination: SocketAddress
    /// The source address the kernel chose; nil when there is no route.
    package var source: SocketAddress?
    /// The interface that owns the source address.
    package var interface: NetworkInterface?
    /// Why the route is unusable (`network is unreachable`, `eth0 is down`); nil when usable.
    package var problem: String?

    package init(
        destination: SocketAddress, source: SocketAddress?, interface: NetworkInterface?, problem: String?
    ) {
        self.destination = destination
        self.source = source
        self.interface = interface
        self.problem = problem
    }

    /// Whether traffic to the destination could leave now.
    package var isUsable: Bool { problem == nil && source != nil }
}

/// The answer for one target: its status, every address's route, and the probe when asked.
package struct ReachabilityReport: Equatable, Sendable {
    /// What was asked about.
    package var target: ReachabilityTarget
    /// The overall status.
    package var status: ReachabilityStatus
    /// One entry per resolved address (or per default route for `anyRoute`), in resolver order.
    package var routes: [RouteReport]
    /// Why the host name did not resolve, when it did not.
    package var resolutionError: String?
    /// The active probe, when `--probe` was given.
    package var probe: ProbeReport?

    package init(
        target: ReachabilityTarget, status: ReachabilityStatus, routes: [RouteReport], resolutionError: String?,
        probe: ProbeReport? = nil
    ) {
        self.target = target
        self.status = status
        self.routes = routes
        self.resolutionError = resolutionError
        self.probe = probe
    }

    /// The route a client would use: the first usable one, in the order addresses are tried.
    package var primaryRoute: RouteReport? {
        routes.first(where: \.isUsable)
    }

    /// AF's status for this report.
    package var afStatus: AFReachabilityStatus {
        AFReachabilityStatus(status: status, kind: primaryRoute?.interface?.kind)
    }

    /// Why the target is not reachable, in one phrase; nil when it is.
    package var reason: String? {
        guard status != .reachable else { return nil }
        if let resolutionError { return resolutionError }
        if let problem = routes.first?.problem { return problem }
        return nil
    }

    /// Whether a watcher should print a line: the status or the way out changed.
    package func differs(from other: ReachabilityReport?) -> Bool {
        guard let other else { return true }
        return status != other.status || primaryRoute?.interface?.name != other.primaryRoute?.interface?.name
            || primaryRoute?.interface?.kind != other.primaryRoute?.interface?.kind
            || primaryRoute?.source != other.primaryRoute?.source
    }
}
