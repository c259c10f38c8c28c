/// The transport stage of the request pipeline (DESIGN §3): whatever answers a prepared request,
/// streaming every hop to a delegate as `HTTPClient` does.
///
/// libcurl (`HTTPClient`) is one transport; a simulated origin and local answer files are others.
/// The stages after it (decryption, validation, envelope, output) see the same delegate events
/// whichever transport answered. A transport is a serial exchange engine: one request at a time,
/// completed before `start` returns.
package protocol RequestTransport: ExchangeEngine {
    /// Answers `request`, streaming each hop to `delegate`; throws the transport's errors and the
    /// delegate's own errors unchanged.
    func send(_ request: PreparedRequest, delegate: HTTPClientDelegate) throws -> HTTPClientResult
}

/// A transport as an engine: `start` sends and completes at once, and nothing stays in flight.
extension RequestTransport {
    package func start(_ order: ExchangeOrder) throws -> ExchangeCompletion? {
        let result: Result<HTTPClientResult, any Error>
        do {
            result = .success(try send(order.request, delegate: order.delegate))
        } catch {
            result = .failure(error)
        }
        return ExchangeCompletion(tag: order.tag, result: result)
    }

    package func run() throws -> [ExchangeCompletion] { [] }

    package func poll(timeoutMilliseconds: Int) throws {}

    package var inFlight: Int { 0 }

    package func cancelAll() -> [ExchangeCompletion] { [] }

    package func cookieHeader(for url: String) -> String? { nil }

    package func adoptCookieFields(of request: inout PreparedRequest) throws {}
}

extension HTTPClient: RequestTransport {}
