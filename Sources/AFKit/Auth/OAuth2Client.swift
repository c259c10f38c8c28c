#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// OAuth 2.0's client credentials grant (RFC 6749 §4.4): the access token a client gets for
/// itself from a token endpoint, kept until it expires.
///
/// The token is asked for with a POST of `grant_type=client_credentials` (and `scope`), the
/// client authenticated with HTTP Basic (§2.3.1, the way the RFC prefers, id and secret
/// form-encoded first). It is kept in memory for the rest of the run and in the token store (or
/// the session) for later runs, until 30 seconds before `expires_in` says it expires; a token the API refused
/// (`invalid_token`) is dropped and a new one fetched.
package final class OAuth2Client {
    package let tokenURL: String
    /// The client's id and secret; nil leaves them to netrc (the token request then carries none
    /// of its own).
    private let client: (id: String, secret: String)?
    package let scope: String?
    private let store: any OAuth2TokenKeeper
    /// The store's key of this token URL, client id and scope.
    private let key: String
    /// The token in use and when it expires.
    private var current: OAuth2TokenStore.Entry?
    /// A token is renewed this many seconds before it expires, so it does not expire in flight.
    static let margin: Int64 = 30
    /// The most of a token response afcli reads.
    static let maxResponseBytes = 64 * 1024

    package init(
        tokenURL: String, client: (id: String, secret: String)?, scope: String?, store: any OAuth2TokenKeeper
    ) {
        self.tokenURL = tokenURL
        self.client = client
        self.key = OAuth2TokenStore.key(tokenURL: tokenURL, clientID: client?.id ?? "", scope: scope)
        self.scope = scope
        self.store = store
    }

    /// A token that has not expired at `now` (seconds since the epoch): the one in memory, else
    /// the stored one, else a new one from the endpoint, sent with `settings`.
    package func token(now: Int64, settings: TransferSettings) throws -> String {
        if let current, Self.isValid(current, now: now) { return current.accessToken }
        if let stored = store.load(key: key), Self.isValid(stored, now: now) {
            current = stored
            return stored.accessToken
        }
        let entry = try fetch(now: now, settings: settings)
        current = entry
        // A store that cannot be written costs a fetch next time, nothing more.
        try? store.save(entry, key: key)
        return entry.accessToken
    }

    /// Forgets `token` (the API answered `invalid_token`), so that the next `token` fetches anew.
    package func discard(_ token: String) {
        guard current?.accessToken == token else { return }
        current = nil
        store.remove(key: key)
    }

    /// A token may be used until `margin` seconds before it expires; one without an expiry until
    /// the API refuses it.
    static func isValid(_ entry: OAuth2TokenStore.Entry, now: Int64) -> Bool {
        entry.expiresAt.map { now < $0 - margin } ?? true
    }

    /// The token request (RFC 6749 §4.4.2).
    func tokenRequest() -> PreparedRequest {
        var form = "grant_type=client_credentials"
        if let scope { form += "&scope=" + Self.formEncoded(scope) }
        let bytes = Array(form.utf8)
        var headers = [
            HTTPField(name: "User-Agent", value: DefaultHeaders.userAgent),
            HTTPField(name: "Accept", value: "application/json"),
            HTTPField(name: "Content-Type", value: "application/x-www-form-urlencoded"),
        ]
        if let client {
            headers.append(
                HTTPField(
                    name: "Authorization",
                    value: DefaultHeaders.basicAuthorization(
                        user: Self.formEncoded(client.id), password: Self.formEncoded(client.secret))))
        }
        return PreparedRequest(method: "POST", url: tokenURL, headers: headers, body: BytesBodySource(bytes), bodyBytes: bytes)
    }

    /// Asks the endpoint for a token and reads its answer (§5.1, §5.2).
    private func fetch(now: Int64, settings: TransferSettings) throws -> OAuth2TokenStore.Entry {
        // The API request's transport settings (proxies, CA files, timeouts), less what belongs to
        // the API alone: its pins, and the cookie engine of its session or run.
        var settings = settings
        settings.verbose = false
        settings.follow = false
        settings.cookies = nil
        settings.tls.pinnedPublicKey = nil
        settings.tls.pinnedKeyDigests = []
        settings.tls.pinnedCertificateDigests = []
        let collector = TokenResponseCollector()
        let result = try HTTPClient(options: settings).send(tokenRequest(), delegate: collector)
        let status = result.head.statusCode
        let object: [JSONMember]?
        if case .object(let members)? = try? JSONParser.parse(bytes: collector.body) { object = members } else { object = nil }
        func string(_ key: String) -> String? {
            if case .string(let value)? = object?.first(where: { $0.key == key })?.value { return value }
            return nil
        }
        guard status == 200 else {
            let error = string("error").map { code in string("error_description").map { "\(code) (\($0))" } ?? code }
            throw OAuth2Error.refused(url: tokenURL, status: status, error: error?.escapingControls)
        }
        guard object != nil else { throw OAuth2Error.badResponse(url: tokenURL, reason: "not a JSON object") }
        guard let token = string("access_token"), !token.isEmpty else {
            throw OAuth2Error.badResponse(url: tokenURL, reason: "no access_token")
        }
        // It goes into an Authorization header, which carries visible ASCII alone.
        guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            let lineBreak = token.utf8.contains { $0 == 0x0A || $0 == 0x0D }
            throw OAuth2Error.badResponse(
                url: tokenURL,
                reason: "its access_token contains "
                    + (lineBreak ? "a line break" : "a space, a control character or a non-ASCII character")
                    + ", which an Authorization header cannot carry")
        }
        if let type = string("token_type"), type.lowercased() != "bearer" {
            throw OAuth2Error.badResponse(url: tokenURL, reason: "token_type \(type.escapingControls), not Bearer")
        }
        var expiresAt: Int64?
        switch object?.first(where: { $0.key == "expires_in" })?.value {
        case .number(let text)?: expiresAt = Int64(text).map { now + $0 }
        case .string(let text)?: expiresAt = Int64(text).map { now + $0 }
        default: break
        }
        return OAuth2TokenStore.Entry(accessToken: token, expiresAt: expiresAt)
    }

    /// `application/x-www-form-urlencoded` (the unreserved characters kept, space as `+`).
    static func formEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if URLReference.isUnreservedByte(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == 0x20 {
                out += "+"
            } else {
                out += "%" + String(Character(Unicode.Scalar(HexDigits.upper[Int(byte >> 4)])))
                    + String(Character(Unicode.Scalar(HexDigits.upper[Int(byte & 0x0F)])))
            }
        }
        return out
    }
}

/// Keeps a token response's body, up to `OAuth2Client.maxResponseBytes`.
private final class TokenResponseCollector: HTTPClientDelegate {
    var body: [UInt8] = []

    func willSend(hop: Int, request: SentRequest) throws {}
    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {}
    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        guard isFinal, body.count < OAuth2Client.maxResponseBytes else { return }
        body.append(contentsOf: chunk.prefix(OAuth2Client.maxResponseBytes - body.count))
    }
}

extension String {
    /// The text with control characters shown as `?`, for a message from the network.
    fileprivate var escapingControls: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}
