import XCTest

@testable import AFKit

/// A test case that starts `HTTPClientTestServer`s on loopback and stops them after each test,
/// with client options that never leave loopback even when the environment names a proxy.
class LoopbackServerTestCase: XCTestCase {
    private var servers: [HTTPClientTestServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    /// Starts a server that stops at the end of the test.
    func startServer(_ handler: @escaping HTTPClientTestServer.Handler) throws -> HTTPClientTestServer {
        let server = try HTTPClientTestServer(handler: handler)
        servers.append(server)
        return server
    }

    /// Loopback-only options, changed by `configure`.
    func options(_ configure: (inout TransferSettings) -> Void = { _ in }) -> TransferSettings {
        var options = TransferSettings(noProxy: "127.0.0.1")
        configure(&options)
        return options
    }
}
