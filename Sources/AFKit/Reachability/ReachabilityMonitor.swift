import Glibc

/// Watches a target and reports every change of its status, as AF's reachability manager does
/// while monitoring: it starts `unknown`, reports the first answer, then each change.
///
/// Changes are noticed through rtnetlink (links, addresses and routes, IPv4 and IPv6), which
/// costs nothing while nothing changes; where netlink is not available the target is
/// re-evaluated every `pollInterval` seconds. Host names are re-resolved every
/// `resolveInterval` seconds too, because DNS changes do not show on netlink.
package final class ReachabilityMonitor {
    /// How changes are noticed.
    package enum ChangeSource: String, Sendable {
        case netlink
        case polling
    }

    /// What is watched.
    package let target: ReachabilityTarget
    /// How each evaluation is made.
    package let evaluator: ReachabilityEvaluator
    /// Seconds between evaluations without netlink.
    package var pollInterval: Double = 2
    /// Seconds between evaluations when netlink reports nothing (names may resolve differently).
    package var resolveInterval: Double = 30
    /// Whether netlink or polling tells about changes (set when `watch` starts).
    package private(set) var changeSource: ChangeSource = .polling
    /// Whether to try netlink at all (tests turn it off to exercise polling).
    package var prefersNetlink = true

    package init(target: ReachabilityTarget, evaluator: ReachabilityEvaluator) {
        self.target = target
        self.evaluator = evaluator
    }

    /// Evaluates, calls `onChange` with the previous status (`unknown` at first) and the new
    /// report whenever `ReachabilityReport.differs`, and waits for the next change, until
    /// `shouldStop` says so (checked after every wake-up, including a signal's).
    package func watch(
        _ onChange: (ReachabilityStatus, ReachabilityReport) throws -> Void, shouldStop: () -> Bool
    ) rethrows {
        let netlink = prefersNetlink ? NetlinkRouteSocket() : nil
        changeSource = netlink == nil ? .polling : .netlink
        var last: ReachabilityReport?
        while !shouldStop() {
            let report = evaluator.evaluate(target)
            if report.differs(from: last) {
                try onChange(last?.status ?? .unknown, report)
            }
            last = report
            if let netlink {
                netlink.waitForChange(timeoutSeconds: resolveInterval)
            } else {
                // poll with no descriptors is an interruptible sleep.
                _ = poll(nil, 0, Int32(pollInterval * 1000))
            }
        }
    }
}

/// An rtnetlink socket subscribed to link, address and route changes.
final class NetlinkRouteSocket {
    /// The socket descriptor.
    private let descriptor: Int32

    /// RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_IFADDR | RTMGRP_IPV6_ROUTE
    /// from `<linux/rtnetlink.h>`, which Glibc's module does not export.
    static let groups: UInt32 = 0x1 | 0x10 | 0x40 | 0x100 | 0x400
    /// NETLINK_ROUTE from `<linux/netlink.h>`.
    static let routeProtocol: Int32 = 0
    /// How long to wait for the rest of a burst of messages (an interface going down removes
    /// its routes and addresses one message at a time) before evaluating once.
    static let settleMilliseconds: Int32 = 100

    /// Opens and binds the socket; nil where netlink is unavailable (then the monitor polls).
    init?() {
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let descriptor = socket(AF_NETLINK, type, Self.routeProtocol)
        guard descriptor >= 0 else { return nil }
        // struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid; __u32 nl_groups; }
        var address = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: UInt16(AF_NETLINK)) { address.replaceSubrange(0..<2, with: $0) }
        withUnsafeBytes(of: Self.groups) { address.replaceSubrange(8..<12, with: $0) }
        let bound = address.withUnsafeBytes { raw in
            bind(descriptor, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard bound == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Waits until a message arrives (or the timeout, or a signal), then drains the burst.
    func waitForChange(timeoutSeconds: Double) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(timeoutSeconds * 1000)) > 0 else { return }
        repeat {
            drain()
            entry.revents = 0
        } while poll(&entry, 1, Self.settleMilliseconds) > 0
    }

    /// Reads and discards every queued message: afcli re-evaluates instead of parsing them.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            // ENOBUFS means messages were lost, which is a change all the same.
            if count <= 0 && errno != ENOBUFS && errno != EINTR { return }
        }
    }
}
