import Foundation
import XCTest

@testable import AFKit

/// Reachability without the network: target parsing, interface kinds from a fake sysfs tree,
/// `--resolve` entries, and the loopback route (a UDP connect sends nothing).
final class ReachabilityTests: XCTestCase {
    func testTargets() throws {
        XCTAssertEqual(try ReachabilityTarget.parse(nil), .anyRoute)
        XCTAssertEqual(
            try ReachabilityTarget.parse("example.com"), .host(name: "example.com", port: 443, usesTLS: true))
        XCTAssertEqual(
            try ReachabilityTarget.parse("example.com:80"), .host(name: "example.com", port: 80, usesTLS: false))
        XCTAssertEqual(try ReachabilityTarget.parse("[::1]:8443"), .host(name: "::1", port: 8443, usesTLS: false))
        XCTAssertEqual(try ReachabilityTarget.parse("fe80::1"), .host(name: "fe80::1", port: 443, usesTLS: true))
        XCTAssertEqual(
            try ReachabilityTarget.parse("https://127.0.0.1:8443/x"),
            .host(name: "127.0.0.1", port: 8443, usesTLS: true))
        XCTAssertEqual(try ReachabilityTarget.parse("http://[::1]/"), .host(name: "::1", port: 80, usesTLS: false))
        XCTAssertEqual(try ReachabilityTarget.parse("[::1]:8443").label, "[::1]:8443")
        for bad in ["", "host:0", "host:65536", "host:x", "[::1", "[::1]x", "ftp://h/", "a b", "host:"] {
            XCTAssertThrowsError(try ReachabilityTarget.parse(bad), bad)
        }
    }

    func testInterfaceKindsFromSysfs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("afcli-sysfs-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        func make(_ name: String, type: Int, entries: [String] = [], uevent: String = "") throws {
            let directory = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("\(type)\n".utf8).write(to: directory.appendingPathComponent("type"))
            try Data(uevent.utf8).write(to: directory.appendingPathComponent("uevent"))
            for entry in entries {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent(entry), withIntermediateDirectories: true)
            }
        }
        try make("lo", type: 772)
        try make("wlan0", type: 1, entries: ["device", "wireless"])
        try make("wlp2s0", type: 1, entries: ["device", "phy80211"], uevent: "DEVTYPE=wlan\n")
        try make("eth0", type: 1, entries: ["device"], uevent: "INTERFACE=eth0\nIFINDEX=2\n")
        try make("wwan0", type: 1, entries: ["device"], uevent: "DEVTYPE=wwan\n")
        try make("ppp0", type: 512)
        try make("veth1", type: 1)
        try make("br0", type: 1, uevent: "DEVTYPE=bridge\n")
        try make("tun0", type: 65534)

        let kinds = ["lo", "wlan0", "wlp2s0", "eth0", "wwan0", "ppp0", "veth1", "br0", "tun0", "missing"].map {
            InterfaceKindReader.kind(of: $0, root: root.path)
        }

        XCTAssertEqual(kinds, [.loopback, .wifi, .wifi, .ethernet, .wwan, .wwan, .other, .other, .other, .other])
    }

    func testResolveEntries() {
        let entries = ["api.test:443:127.0.0.1", "API.test:8443:[::1],127.0.0.2", "other:443:10.0.0.1"]

        XCTAssertEqual(
            ReachabilityEvaluator.resolveEntryAddresses(for: "api.test", port: 443, entries: entries), ["127.0.0.1"])
        XCTAssertEqual(
            ReachabilityEvaluator.resolveEntryAddresses(for: "api.TEST", port: 8443, entries: entries),
            ["::1", "127.0.0.2"])
        XCTAssertNil(ReachabilityEvaluator.resolveEntryAddresses(for: "api.test", port: 80, entries: entries))
    }

    func testLoopbackIsReachableThroughTheLoopbackInterface() {
        let report = ReachabilityEvaluator().evaluate(.host(name: "127.0.0.1", port: 9, usesTLS: false))

        XCTAssertEqual(report.status, .reachable)
        XCTAssertEqual(report.primaryRoute?.interface?.kind, .loopback)
        XCTAssertEqual(report.primaryRoute?.source?.host, "127.0.0.1")
        XCTAssertEqual(report.afStatus, AFReachabilityStatus(status: .reachable, kind: .loopback))
        XCTAssertNil(report.reason)
    }

    func testResolveEntryReplacesTheResolver() {
        let evaluator = ReachabilityEvaluator(resolveEntries: ["nowhere.invalid:443:127.0.0.1"])

        let report = evaluator.evaluate(.host(name: "nowhere.invalid", port: 443, usesTLS: true))

        XCTAssertEqual(report.status, .reachable)
        XCTAssertEqual(report.routes.map(\.destination.host), ["127.0.0.1"])
    }

    func testAFStatusNamesAndValues() {
        XCTAssertEqual(AFReachabilityStatus(status: .unknown, kind: nil).value, -1)
        XCTAssertEqual(AFReachabilityStatus(status: .notReachable, kind: .wifi).name, "NotReachable")
        XCTAssertEqual(AFReachabilityStatus(status: .reachable, kind: .wwan).name, "ReachableViaWWAN")
        XCTAssertEqual(AFReachabilityStatus(status: .reachable, kind: .ethernet).value, 2)
    }

    func testChangesAreStatusOrWayOut() throws {
        let destination = try XCTUnwrap(SocketAddress(numeric: "10.0.0.2", port: 443))
        let source = try XCTUnwrap(SocketAddress(numeric: "10.0.0.1", port: 0))
        let eth = NetworkInterface(name: "eth0", kind: .ethernet, isUp: true, isRunning: true, addresses: [source])
        let up = ReachabilityReport(
            target: .anyRoute, status: .reachable,
            routes: [RouteReport(destination: destination, source: source, interface: eth, problem: nil)],
            resolutionError: nil)
        var wifi = up
        wifi.routes[0].interface?.name = "wlan0"
        let down = ReachabilityReport(
            target: .anyRoute, status: .notReachable,
            routes: [
                RouteReport(destination: destination, source: nil, interface: nil, problem: "network is unreachable")
            ],
            resolutionError: nil)

        XCTAssertTrue(up.differs(from: nil))
        XCTAssertFalse(up.differs(from: up))
        XCTAssertTrue(wifi.differs(from: up))
        XCTAssertTrue(down.differs(from: up))
        XCTAssertEqual(down.reason, "network is unreachable")
    }

    func testWatchReportsTheFirstAnswerAsAChangeFromUnknown() {
        for prefersNetlink in [false, true] {
            let monitor = ReachabilityMonitor(
                target: .host(name: "127.0.0.1", port: 9, usesTLS: false), evaluator: ReachabilityEvaluator())
            monitor.prefersNetlink = prefersNetlink
            monitor.pollInterval = 0.01
            monitor.resolveInterval = 0.01
            var changes: [(ReachabilityStatus, ReachabilityStatus)] = []
            var wakeUps = 0

            monitor.watch(
                { previous, report in changes.append((previous, report.status)) },
                shouldStop: {
                    wakeUps += 1
                    return wakeUps > 3
                })

            XCTAssertEqual(changes.count, 1, "only the first answer is a change")
            XCTAssertEqual(changes.first?.0, .unknown)
            XCTAssertEqual(changes.first?.1, .reachable)
            if !prefersNetlink { XCTAssertEqual(monitor.changeSource, .polling) }
        }
    }

    func testSocketAddresses() throws {
        let v6 = try XCTUnwrap(SocketAddress(numeric: "::1", port: 8443))
        XCTAssertEqual(v6.family, .ipv6)
        XCTAssertEqual(v6.port, 8443)
        XCTAssertEqual(v6.bracketedHost, "[::1]")
        XCTAssertEqual(v6.withoutPort.port, 0)
        XCTAssertNil(SocketAddress(numeric: "example.com", port: 1))
    }
}
