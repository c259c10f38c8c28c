import Foundation
import Glibc

/// A tiny HTTP/1.1 server on 127.0.0.1 for the HTTPClient tests: one thread accepts, one thread
/// per connection parses requests (Content-Length and chunked bodies, keep-alive) and plays the
/// reply the test's handler chose. It records every request for assertions.
final class HTTPClientTestServer: @unchecked Sendable {
    /// A request as the server parsed it.
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        /// The first value of a header, case-insensitively.
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// What the server does in answer to a request.
    struct Reply: Sendable {
        /// Byte strings written one after another.
        var pieces: [[UInt8]]
        /// Seconds to wait before each piece.
        var delay: Double = 0
        /// Seconds to stay silent before anything (a stalled server).
        var stall: Double = 0
        /// Whether to close the connection after the reply.
        var close = false

        /// A complete response with Content-Length computed from `body`.
        static func response(
            _ status: Int, _ reason: String, headers: [(String, String)] = [], body: [UInt8] = []
        ) -> Reply {
            var head = "HTTP/1.1 \(status) \(reason)\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            head += "Content-Length: \(body.count)\r\n\r\n"
            return Reply(pieces: [Array(head.utf8) + body])
        }

        /// A chunked response delivering `chunks` one by one with `delay` seconds between them.
        static func chunked(_ chunks: [[UInt8]], delay: Double) -> Reply {
            var pieces = [Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)]
            for chunk in chunks {
                pieces.append(Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10])
            }
            pieces.append(Array("0\r\n\r\n".utf8))
            return Reply(pieces: pieces, delay: delay)
        }
    }

    typealias Handler = @Sendable (Request) -> Reply

    let port: UInt16
    private let listenFD: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var openFDs: Set<Int32> = []
    private var recorded: [Request] = []
    private var accepted = 0
    private var stopped = false

    /// Starts listening on an ephemeral loopback port.
    init(handler: @escaping Handler) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && listen(fd, 16) == 0
                    && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listenFD = fd
        port = UInt16(bigEndian: address.sin_port)
        openFDs.insert(fd)
        Thread { [self] in acceptLoop() }.start()
    }

    /// The base URL, e.g. `http://127.0.0.1:40123`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, in order.
    var requests: [Request] {
        lock.withLock { recorded }
    }

    /// How many connections were accepted (1 for several requests means keep-alive worked).
    var connectionCount: Int {
        lock.withLock { accepted }
    }

    /// Stops accepting and drops every open connection.
    func stop() {
        lock.withLock {
            stopped = true
            for fd in openFDs { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        while !isStopped {
            let connection = accept(listenFD, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            let registered = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                openFDs.insert(connection)
                accepted += 1
                return true
            }
            guard registered else {
                close(connection)
                break
            }
            Thread { [self] in serve(connection) }.start()
        }
        release(listenFD)
    }

    /// Forgets and closes a descriptor (only its own thread closes it, so numbers are not reused
    /// under `stop`).
    private func release(_ fd: Int32) {
        lock.withLock { _ = openFDs.remove(fd) }
        close(fd)
    }

    private func serve(_ fd: Int32) {
        var reader = SocketReader(fd: fd)
        defer { release(fd) }
        while let request = reader.readRequest() {
            lock.withLock { recorded.append(request) }
            let reply = handler(request)
            if reply.stall > 0 {
                pause(reply.stall)
                return
            }
            for piece in reply.pieces {
                if reply.delay > 0 { pause(reply.delay) }
                guard writeAll(fd, piece) else { return }
            }
            if reply.close { return }
        }
    }

    /// Sleeps in short steps so `stop` is not held up by a long stall.
    private func pause(_ seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && !isStopped {
            usleep(10_000)
        }
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}

/// Buffered reading of HTTP/1.1 requests from a socket.
private struct SocketReader {
    let fd: Int32
    var buffer: [UInt8] = []

    /// Reads more bytes; false at end of stream.
    mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one CRLF-terminated line without its CRLF.
    mutating func line() -> String? {
        while true {
            if let index = buffer.firstIndex(of: 10) {
                var bytes = Array(buffer[..<index])
                buffer.removeFirst(index + 1)
                if bytes.last == 13 { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self)
            }
            guard fill() else { return nil }
        }
    }

    /// Reads exactly `count` bytes.
    mutating func bytes(_ count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard fill() else { return nil }
        }
        let result = Array(buffer[..<count])
        buffer.removeFirst(count)
        return result
    }

    /// Reads one request: request line, headers, and a Content-Length or chunked body.
    mutating func readRequest() -> HTTPClientTestServer.Request? {
        guard let requestLine = line() else { return nil }
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3 else { return nil }
        var headers: [(name: String, value: String)] = []
        while let header = line(), !header.isEmpty {
            guard let colon = header.firstIndex(of: ":") else { continue }
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name: String(header[..<colon]), value: value))
        }
        var request = HTTPClientTestServer.Request(
            method: String(parts[0]), target: String(parts[1]), headers: headers, body: [])
        if request.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let sizeLine = line(), let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) {
                if size == 0 {
                    while let trailer = line(), !trailer.isEmpty {}
                    break
                }
                guard let chunk = bytes(size), line() != nil else { return nil }
                request.body += chunk
            }
        } else if let length = request.header("Content-Length").flatMap({ Int($0) }), length > 0 {
            guard let body = bytes(length) else { return nil }
            request.body = body
        }
        return request
    }
}
