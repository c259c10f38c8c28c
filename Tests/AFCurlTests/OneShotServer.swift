import Foundation
import Glibc
import XCTest

/// A loopback server for one connection: it reads one request head (and a body of the length
/// the head announces), answers with fixed bytes, and keeps what it read for the test.
final class OneShotServer: @unchecked Sendable {
    /// The port chosen by the kernel on 127.0.0.1.
    let port: Int
    private let listener: Int32
    private let reply: [UInt8]
    private let done = DispatchSemaphore(value: 0)
    /// The request bytes received (head and body), once `received()` returns.
    private var request: [UInt8] = []

    init(reply: String) throws {
        self.reply = Array(reply.utf8)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 1) == 0 else { throw POSIXErrorCode(rawValue: errno).map { POSIXError($0) } ?? POSIXError(.EIO) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        // The thread holds the server until the exchange ends; nothing holds the thread.
        Thread { [self] in serve() }.start()
    }

    deinit { close(listener) }

    /// Waits for the exchange to end and returns the request as text.
    func received() -> String {
        _ = done.wait(timeout: .now() + 10)
        return String(decoding: request, as: UTF8.self)
    }

    private func serve() {
        defer { done.signal() }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !isComplete() {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            request += buffer[0..<count]
        }
        _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Whether the head and the body it announces have arrived.
    private func isComplete() -> Bool {
        let text = String(decoding: request, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length
    }
}

extension OneShotServer {
    /// A loopback port nothing listens on: bound, then closed.
    static func closedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
