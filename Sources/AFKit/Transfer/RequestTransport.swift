/// The transport stage of the request pipeline (DESIGN §3): whatever answers a prepared request,
/// streaming every hop to a delegate as `HTTPClient` does.
///
/// libcurl (`HTTPClient`) is one transport; a simulated origin, local answer files and the
/// response cache are others, and a stage may wrap another (a cache in front of libcurl). The
/// stages after it (decryption, validation, envelope, output) see the same delegate events
/// whichever transport answered.
package protocol RequestTransport: AnyObject {
    /// Answers `request`, streaming each hop to `delegate`; throws the transport's errors and the
    /// delegate's own errors unchanged.
    func send(_ request: PreparedRequest, delegate: HTTPClientDelegate) throws -> HTTPClientResult
}

extension HTTPClient: RequestTransport {}
