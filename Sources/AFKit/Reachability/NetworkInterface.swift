import Glibc

/// What kind of link an interface is, as far as `/sys/class/net` tells.
///
/// AF distinguishes WiFi and WWAN (cellular) because iOS does; Linux tells more, so afcli also
/// names ethernet and loopback, and anything it cannot place (bridges, veth, tunnels) is `other`.
package enum InterfaceKind: String, Equatable, Sendable, CaseIterable {
    case wifi
    case wwan
    case ethernet
    case loopback
    case other
}

/// One network interface: its name, index, state flags and kind.
package struct NetworkInterface: Equatable, Sendable {
    /// The kernel's name (`eth0`, `wlan0`, `lo`).
    package var name: String
    /// The kind from sysfs.
    package var kind: InterfaceKind
    /// IFF_UP: administratively up.
    package var isUp: Bool
    /// IFF_RUNNING: up with a carrier (operationally up).
    package var isRunning: Bool
    /// The interface's addresses, without ports.
    package var addresses: [SocketAddress]

    package init(name: String, kind: InterfaceKind, isUp: Bool, isRunning: Bool, addresses: [SocketAddress]) {
        self.name = name
        self.kind = kind
        self.isUp = isUp
        self.isRunning = isRunning
        self.addresses = addresses
    }

    /// Whether traffic can leave through this interface now.
    package var isUsable: Bool { isUp && isRunning }
}

/// Lists interfaces with getifaddrs and classifies them from sysfs.
package enum NetworkInterfaces {
    /// Every interface with its addresses, in getifaddrs order.
    package static func snapshot(sysfsRoot: String = InterfaceKindReader.defaultRoot) -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var interfaces: [NetworkInterface] = []
        var cursor = list
        while let entry = cursor {
            cursor = entry.pointee.ifa_next
            guard let namePointer = entry.pointee.ifa_name else { continue }
            let name = String(cString: namePointer)
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            var address: SocketAddress?
            if let raw = entry.pointee.ifa_addr {
                let length = Int32(raw.pointee.sa_family) == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : 16
                address = SocketAddress(raw, length: socklen_t(length))
            }
            if let index = interfaces.firstIndex(where: { $0.name == name }) {
                if let address { interfaces[index].addresses.append(address.withoutPort) }
                continue
            }
            interfaces.append(
                NetworkInterface(
                    name: name, kind: InterfaceKindReader.kind(of: name, root: sysfsRoot),
                    isUp: flags & Int32(IFF_UP) != 0, isRunning: flags & Int32(IFF_RUNNING) != 0,
                    addresses: address.map { [$0.withoutPort] } ?? []))
        }
        return interfaces
    }

    /// The interface that owns `address` (the source address a route lookup chose).
    package static func owner(of address: SocketAddress, in interfaces: [NetworkInterface]) -> NetworkInterface? {
        let wanted = address.withoutPort
        return interfaces.first { $0.addresses.contains(wanted) }
            // A link-local IPv6 source carries the zone; compare the text before `%`.
            ?? interfaces.first { interface in
                interface.addresses.contains {
                    $0.host.split(separator: "%").first == wanted.host.split(separator: "%").first
                }
            }
    }
}

/// Reads an interface's kind from `/sys/class/net/NAME`.
package enum InterfaceKindReader {
    /// Where Linux lists network interfaces.
    package static let defaultRoot = "/sys/class/net"

    /// ARPHRD_* values from `<net/if_arp.h>`, as sysfs `type` prints them.
    private static let loopbackType = 772
    private static let etherType = 1
    private static let pppType = 512
    private static let rawIPType = 519

    /// Classifies one interface: `wireless`/`phy80211` or DEVTYPE=wlan → wifi; DEVTYPE=wwan, PPP
    /// or raw-IP links (cellular modems) → wwan; ARPHRD_LOOPBACK → loopback; an Ethernet link
    /// backed by a `device` (real hardware, not veth or a bridge) → ethernet; else other.
    package static func kind(of name: String, root: String = defaultRoot) -> InterfaceKind {
        let directory = root + "/" + name
        let type = Int(readFirstLine(directory + "/type") ?? "")
        if type == loopbackType { return .loopback }
        let devtype = deviceType(directory)
        if exists(directory + "/wireless") || exists(directory + "/phy80211") || devtype == "wlan" { return .wifi }
        if devtype == "wwan" || type == pppType || type == rawIPType || name.hasPrefix("wwan") { return .wwan }
        if type == etherType && exists(directory + "/device") && devtype == nil { return .ethernet }
        return .other
    }

    /// The DEVTYPE from the interface's `uevent` (wlan, wwan, bridge, vlan…), if any.
    private static func deviceType(_ directory: String) -> String? {
        guard let text = readFile(directory + "/uevent") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("DEVTYPE=") {
            return String(line.dropFirst("DEVTYPE=".count))
        }
        return nil
    }

    /// Whether a path exists (a file, directory or link).
    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The first line of a small file, trimmed of its newline.
    private static func readFirstLine(_ path: String) -> String? {
        readFile(path).map { String($0.prefix { $0 != "\n" }) }
    }

    /// The text of a small sysfs file (at most 4 KiB).
    private static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}
