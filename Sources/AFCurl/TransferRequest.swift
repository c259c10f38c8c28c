import CCurlShim

/// One HTTP exchange as libcurl should perform it: no redirects, no retries beyond curl's own
/// authentication round trip. Built once per hop and only read after that (by the handle that
/// sends it, for as long as the transfer runs), so an immutable object handed on by reference.
package final class TransferRequest {
    /// The method token, sent as typed (`GET`, `POST`, `PROPFIND`…).
    package let method: String
    /// The absolute `http://` or `https://` URL.
    package let url: String
    /// Header lines in curl's syntax: `Name: value` sends, `Name:` suppresses one of curl's own
    /// headers, `Name;` sends the header with an empty value.
    package let headerLines: [String]
    /// The body libcurl pulls, or nil for none.
    package let body: BodySource?
    /// Connection, proxy, protocol and authentication settings.
    package let options: TransferOptions
    /// The request target sent instead of the URL's path (`*` for `OPTIONS *`); nil for the URL's.
    package let requestTarget: String?

    package init(
        method: String, url: String, headerLines: [String] = [], body: BodySource? = nil,
        options: TransferOptions = TransferOptions(), requestTarget: String? = nil
    ) {
        self.method = method
        self.url = url
        self.headerLines = headerLines
        self.body = body
        self.options = options
        self.requestTarget = requestTarget
    }
}

/// Settings of one transfer that are not part of the HTTP message itself.
package struct TransferOptions: Sendable {
    /// Seconds allowed for connecting (DNS, TCP, TLS); nil for libcurl's default of 300.
    package var connectTimeout: Double?
    /// Seconds allowed for the whole transfer (curl's `--max-time`); nil for no limit.
    package var totalTimeout: Double?
    /// Seconds the transfer may go without a byte received or sent (HTTPie's `--timeout`, AF's
    /// `timeoutInterval`); also bounds connecting when `connectTimeout` is nil. nil for no limit.
    package var idleTimeout: Double?
    /// Bounds on the response body.
    package var limits: ResponseLimits
    /// An explicit proxy URL (`http://host:port`, `socks5://…`); nil leaves libcurl reading
    /// `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` from the environment.
    package var proxy: String?
    /// Hosts that bypass the proxy, comma separated (`*` for all); nil for the environment's.
    package var noProxy: String?
    /// Which HTTP version to ask for.
    package var httpVersion: HTTPVersionPreference
    /// The Accept-Encoding value to send and decode transparently; "" offers every encoding this
    /// libcurl supports; nil sends nothing and leaves bodies as received.
    package var acceptEncoding: String?
    /// Credentials for HTTP Digest, which libcurl negotiates through a 401 challenge.
    package var digestCredentials: DigestCredentials?
    /// TLS verification settings.
    package var tls: TLSOptions
    /// Whether to report the request heads exactly as sent (costs libcurl's debug path).
    package var reportsRequestHeads: Bool
    /// `HOST:PORT:ADDRESS` entries that take the place of name resolution (CURLOPT_RESOLVE).
    package var resolve: [String]
    /// Routing, address family, receive rate, body framing and HSTS.
    package var network = NetworkOptions()
    /// Whether libcurl's cookie engine runs: cookies in the handle are sent to the hosts and
    /// paths they belong to, and `Set-Cookie` updates them (see `EasyHandle.loadCookies`).
    package var cookieEngine = false
    /// A netrc file libcurl reads credentials from for the URL's host when the request carries
    /// none (CURL_NETRC_OPTIONAL); nil for no netrc.
    package var netrcFile: String? = nil

    package init(
        connectTimeout: Double? = nil, totalTimeout: Double? = nil, proxy: String? = nil,
        noProxy: String? = nil, httpVersion: HTTPVersionPreference = .automatic,
        acceptEncoding: String? = nil, digestCredentials: DigestCredentials? = nil,
        tls: TLSOptions = TLSOptions(), reportsRequestHeads: Bool = false, resolve: [String] = [],
        idleTimeout: Double? = nil, limits: ResponseLimits = ResponseLimits()
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.idleTimeout = idleTimeout
        self.limits = limits
        self.proxy = proxy
        self.noProxy = noProxy
        self.httpVersion = httpVersion
        self.acceptEncoding = acceptEncoding
        self.digestCredentials = digestCredentials
        self.tls = tls
        self.reportsRequestHeads = reportsRequestHeads
        self.resolve = resolve
    }
}

extension TransferOptions {
    /// The seconds allowed for connecting: the connect timeout, else the idle timeout, which also
    /// bounds connecting (nothing is received while a connection is set up; HTTPie's timeout
    /// covers both).
    package var effectiveConnectTimeout: Double? { connectTimeout ?? idleTimeout }
}

/// The HTTP version afcli asks libcurl for.
package enum HTTPVersionPreference: String, Sendable, CaseIterable {
    /// libcurl's default: HTTP/2 over TLS when ALPN agrees, HTTP/1.1 otherwise.
    case automatic
    /// HTTP/1.1 only.
    case http1_1
    /// HTTP/2: ALPN over TLS, an `Upgrade: h2c` attempt over cleartext (never prior knowledge).
    case http2
    /// HTTP/2 from the first byte, without ALPN or Upgrade (h2c prior knowledge).
    case http2PriorKnowledge
    /// HTTP/3 over QUIC, falling back to HTTP/2 or HTTP/1.1 (needs a libcurl built with HTTP/3).
    case http3
}

/// A user name and password for a scheme libcurl negotiates after the server's challenge: HTTP
/// Digest, NTLM or Negotiate (SPNEGO, whose Kerberos ticket comes from the system; its user name
/// and password are then empty).
package struct DigestCredentials: Equatable, Sendable {
    package var user: String
    package var password: String
    package var scheme: ChallengeScheme

    package init(user: String, password: String, scheme: ChallengeScheme = .digest) {
        self.user = user
        self.password = password
        self.scheme = scheme
    }
}

/// An authentication scheme libcurl answers a challenge with (CURLOPT_HTTPAUTH).
package enum ChallengeScheme: String, Equatable, Sendable {
    case digest
    case ntlm
    case negotiate

    /// curl's option for it: `--digest`, `--ntlm`, `--negotiate`.
    package var curlOption: String { "--" + rawValue }

    /// libcurl's CURLAUTH_ bit for it.
    package var curlAuth: UInt {
        switch self {
        case .digest: return AFCURL_AUTH_DIGEST
        case .ntlm: return AFCURL_AUTH_NTLM
        case .negotiate: return AFCURL_AUTH_NEGOTIATE
        }
    }

    /// Whether the libcurl afcli loaded was built with what the scheme needs (NTLM; SPNEGO over
    /// GSS-API for Negotiate).
    package var isSupported: Bool { afcurl_supports_auth(curlAuth) != 0 }
}

/// How the server's certificate is checked; verification is on unless turned off explicitly.
package struct TLSOptions: Equatable, Sendable {
    /// Whether the certificate chain must verify against the CA bundle.
    package var verifyPeer: Bool
    /// Whether the certificate must name the host.
    package var verifyHost: Bool
    /// A CA bundle file in PEM format; nil for the system bundle.
    package var caFile: String?
    /// A directory of hashed CA certificates; nil for the system one.
    package var caPath: String?
    /// libcurl's pinned public key syntax: `sha256//base64;sha256//base64` or a PEM/DER path.
    /// libcurl compares it with the leaf's key only; it is used when `pinnedKeyDigests` cannot be
    /// checked chain-wide (a libcurl whose TLS backend is not the OpenSSL afcli was built with).
    package var pinnedPublicKey: String?
    /// A client certificate file (PEM) and its key, for mutual TLS.
    package var clientCertificate: String?
    package var clientKey: String?
    /// The oldest TLS version accepted; nil for libcurl's default (TLS 1.2 with this OpenSSL).
    package var minimumVersion: TLSVersion?
    /// SHA-256 digests of pinned SubjectPublicKeyInfos: the handshake fails unless a certificate
    /// anywhere in the chain carries one of these keys (AFSSLPinningModePublicKey).
    package var pinnedKeyDigests: [[UInt8]]
    /// SHA-256 digests of pinned DER certificates: the handshake fails unless one of them is in
    /// the verified chain (AFSSLPinningModeCertificate).
    package var pinnedCertificateDigests: [[UInt8]]
    /// PEM certificates that replace every other trust anchor (the CA bundle and directory).
    package var trustedCertificatesPEM: String?

    package init(
        verifyPeer: Bool = true, verifyHost: Bool = true, caFile: String? = nil,
        caPath: String? = nil, pinnedPublicKey: String? = nil, clientCertificate: String? = nil,
        clientKey: String? = nil, minimumVersion: TLSVersion? = nil, pinnedKeyDigests: [[UInt8]] = [],
        pinnedCertificateDigests: [[UInt8]] = [], trustedCertificatesPEM: String? = nil
    ) {
        self.verifyPeer = verifyPeer
        self.verifyHost = verifyHost
        self.caFile = caFile
        self.caPath = caPath
        self.pinnedPublicKey = pinnedPublicKey
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.minimumVersion = minimumVersion
        self.pinnedKeyDigests = pinnedKeyDigests
        self.pinnedCertificateDigests = pinnedCertificateDigests
        self.trustedCertificatesPEM = trustedCertificatesPEM
    }

    /// Whether any pin (key or certificate) restricts the server's chain.
    package var isPinning: Bool {
        !pinnedKeyDigests.isEmpty || !pinnedCertificateDigests.isEmpty || pinnedPublicKey != nil
    }
}

/// A TLS protocol version afcli can insist on as the minimum.
package enum TLSVersion: String, Sendable, CaseIterable {
    case tls12 = "1.2"
    case tls13 = "1.3"
}
