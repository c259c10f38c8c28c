import AFCurl

// AFCLI imports AFKit only (DESIGN §3). The transport's value types below are part of AFKit's
// own interface: a command composes requests from them and reports their errors, so AFKit names
// them here instead of letting AFCLI reach past it into AFCurl. They stay aliases (not copies) so
// that no value is converted on the way down and AFCurl remains their one definition.

/// The scheme libcurl answers an authentication challenge with (`-A digest`, `ntlm`, `negotiate`).
package typealias ChallengeScheme = AFCurl.ChallengeScheme

/// A request body pulled in chunks by the transport; every AFKit body source conforms to it, and
/// AFCLI wraps bodies in its own (upload progress) through this name.
package typealias BodySource = AFCurl.BodySource

/// A response's status line and header fields as received; AFCLI prints and validates it.
package typealias ResponseHead = AFCurl.ResponseHead

/// A content or transfer coding the transport could not decode, so the body is as received.
package typealias KeptCoding = AFCurl.KeptCoding

/// The TLS settings of a request (verification, CA files, client certificates, pins), built by
/// AFCLI from `--verify`, `--cert` and the pin options through `SecurityPolicy`.
package typealias TLSOptions = AFCurl.TLSOptions

/// The lowest TLS version a request accepts (`--ssl`).
package typealias TLSVersion = AFCurl.TLSVersion

/// A failed transfer (timeout, refused connection, TLS failure, interrupt…); AFCLI maps its kind
/// to an exit status.
package typealias CurlError = AFCurl.CurlError

/// A host name IDNA cannot convert; AFKit reports it inside `SerializationError.invalidURL`, and
/// states its class (`CurlError+FailureClass.swift`) as for every error it could pass on.
package typealias IDNAError = AFCurl.IDNAError

/// Why a TLS handshake or trust evaluation failed, attached to a `CurlError`.
package typealias TLSFailure = AFCurl.TLSFailure

/// The process-wide SIGINT/SIGTERM flag every transfer, formatter and command loop polls.
package typealias Interruption = AFCurl.Interruption

/// Facts about the loaded libcurl (its version, the encodings it decodes) for `afcli version`.
package typealias CurlRuntime = AFCurl.CurlRuntime

/// What a connection without a request found: address, timings and the server's certificates.
package typealias ConnectionReport = AFCurl.ConnectionReport

/// One certificate of a server's chain: subject, issuer and the digests pins are made of.
package typealias PeerCertificate = AFCurl.PeerCertificate

/// The bounds a response is held to (`--max-filesize`, `--max-expansion`, header size and count).
package typealias ResponseLimits = AFCurl.ResponseLimits

/// Where and how a request connects (`--connect-to`, `-4`/`-6`, `--unix-socket`, `--interface`,
/// `--limit-rate`, `--chunked`, the HSTS cache), as plain data the transport applies in one place.
package typealias NetworkOptions = AFCurl.NetworkOptions

/// A transfer's phase timings and connection facts (DNS, connect, TLS, first byte, total; reuse;
/// addresses; sizes), shown by `--print=m`, `--meta=json` and `--write-out`.
package typealias TransferMetrics = AFCurl.TransferMetrics
