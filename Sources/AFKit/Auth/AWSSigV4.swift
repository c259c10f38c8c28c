#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// AWS Signature Version 4: signs a request as botocore's `SigV4Auth` (and `S3SigV4Auth` for the
/// s3 service) does, so that a request afcli sends verifies wherever botocore's would.
///
/// The request is given as sent: the URL with its path and query as on the wire, the header
/// fields, and the body's SHA-256 in hexadecimal (or `UNSIGNED-PAYLOAD`). What botocore does to
/// it is repeated here: an old `Authorization` goes; `X-Amz-Date` (or, when the request has a
/// `Date`, a new `Date`), `X-Amz-Security-Token` with a session token, and `X-Amz-Content-SHA256`
/// for s3 (or an unsigned payload) replace any of the same name; hop-by-hop fields and
/// `User-Agent` are not signed. The query is canonicalised from what it means, not how it was
/// written: each name and value is percent-decoded (`+` stays a plus) and encoded again with
/// only the unreserved characters left as they are, then the pairs are sorted by name and
/// value, which is what botocore's clients produce and AWS's servers recompute.
package enum AWSSigV4 {
    /// The access key, its secret, and the session token of temporary credentials.
    package struct Credentials: Sendable {
        package var accessKey: String
        package var secretKey: String
        package var sessionToken: String?

        package init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
            self.accessKey = accessKey
            self.secretKey = secretKey
            self.sessionToken = sessionToken
        }
    }

    /// A request to sign.
    package struct Request: Sendable {
        package var method: String
        /// The absolute URL as sent (`https://host/path?query`).
        package var url: String
        /// The header fields as sent, in order; a name may repeat.
        package var headers: [(name: String, value: String)]
        /// The body's SHA-256 in lower-case hexadecimal, or `AWSSigV4.unsignedPayload`.
        package var payloadHash: String

        package init(method: String, url: String, headers: [(name: String, value: String)], payloadHash: String) {
            self.method = method
            self.url = url
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// What signing produced.
    package struct Signed: Sendable {
        /// The canonical request, as AWS's documentation and botocore's debug log print it.
        package var canonicalRequest: String
        package var stringToSign: String
        /// The signature in hexadecimal.
        package var signature: String
        /// The request's header fields with the signer's changes, in botocore's order: the
        /// request's own first (less those replaced), then the date, the token, the content hash
        /// and `Authorization`.
        package var headers: [(name: String, value: String)]

        /// The `Authorization` value.
        package var authorization: String { headers.last { $0.name == "Authorization" }?.value ?? "" }
    }

    /// The payload hash of a body that is not signed.
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// Header fields botocore never signs: proxies and the transport may change them.
    private static let unsignedFields: Set<String> = [
        "connection", "expect", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id",
    ]

    /// Signs `request` for `service` in `region` at `time` (seconds since the epoch).
    package static func sign(
        _ request: Request, credentials: Credentials, region: String, service: String, time: Int64
    ) -> Signed {
        let timestamp = Self.timestamp(time)
        let date = String(timestamp.prefix(8))
        let isS3 = service == "s3"
        var headers = request.headers
        func replace(_ name: String, with value: String) {
            headers.removeAll { $0.name.lowercased() == name.lowercased() }
            headers.append((name, value))
        }
        headers.removeAll { $0.name.lowercased() == "authorization" }
        if headers.contains(where: { $0.name.lowercased() == "date" }) {
            replace("Date", with: httpDate(time))
            headers.removeAll { $0.name.lowercased() == "x-amz-date" }
        } else {
            replace("X-Amz-Date", with: timestamp)
        }
        if let token = credentials.sessionToken { replace("X-Amz-Security-Token", with: token) }
        if isS3 || request.payloadHash == unsignedPayload { replace("X-Amz-Content-SHA256", with: request.payloadHash) }

        let url = URLReference(parsing: request.url)
        let (names, canonicalHeaders) = Self.canonicalHeaders(headers, url: url)
        let checksum = headers.first { $0.name.lowercased() == "x-amz-content-sha256" }?.value ?? request.payloadHash
        let canonicalRequest = [
            request.method.uppercased(), isS3 ? url.path : canonicalPath(url.path), canonicalQuery(url.query ?? ""),
            canonicalHeaders + "\n", names, checksum,
        ].joined(separator: "\n")
        let scope = "\(date)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", timestamp, scope, SHA256.hex(SHA256.hash(Array(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        var key = Array("AWS4\(credentials.secretKey)".utf8)
        for part in [date, region, service, "aws4_request"] { key = HMACSHA256.authenticate(part, key: key) }
        let signature = SHA256.hex(HMACSHA256.authenticate(stringToSign, key: key))
        headers.append(
            (
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope), SignedHeaders=\(names), "
                    + "Signature=\(signature)"
            ))
        return Signed(
            canonicalRequest: canonicalRequest, stringToSign: stringToSign, signature: signature, headers: headers)
    }

    /// The signed header names (`a;b;host`) and their canonical lines (`name:value`, values of a
    /// repeated name joined with commas, white space runs folded to one space); `host` comes
    /// from the URL when the request has no Host field.
    private static func canonicalHeaders(
        _ headers: [(name: String, value: String)], url: URLReference
    ) -> (names: String, lines: String) {
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            let name = name.lowercased()
            guard !unsignedFields.contains(name) else { continue }
            values[name, default: []].append(foldingWhiteSpace(value))
        }
        if values["host"] == nil { values["host"] = [host(of: url)] }
        let names = values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let lines = names.map { "\($0):\(values[$0]!.joined(separator: ","))" }
        return (names.joined(separator: ";"), lines.joined(separator: "\n"))
    }

    /// The value with white space trimmed and every run inside folded to one space (Python's
    /// `" ".join(value.split())`, whose white space includes the separators U+001C to U+001F).
    private static func foldingWhiteSpace(_ value: String) -> String {
        value.unicodeScalars.split { $0.properties.isWhitespace || (0x1C...0x1F).contains($0.value) }
            .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    }

    /// The Host value botocore derives from a URL: lower case, without user information, the
    /// port only when it is not the scheme's default.
    private static func host(of url: URLReference) -> String {
        let host = (url.host ?? "").lowercased()
        guard let text = url.port, !text.isEmpty, let port = Int(text) else { return host }
        let defaults = ["http": 80, "https": 443]
        return defaults[(url.scheme ?? "").lowercased()] == port ? host : "\(host):\(port)"
    }

    /// The path of a service other than s3: dot segments and empty segments removed, then
    /// percent-encoded again as a whole (a `%20` on the wire is signed as `%2520`).
    static func canonicalPath(_ path: String) -> String {
        guard !path.isEmpty else { return "/" }
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) where segment != "." {
            if segment == ".." {
                if !segments.isEmpty { segments.removeLast() }
            } else {
                segments.append(segment)
            }
        }
        let first = path.hasPrefix("/") ? "/" : ""
        let last = path.hasSuffix("/") && !segments.isEmpty ? "/" : ""
        return encode(Array((first + segments.joined(separator: "/") + last).utf8), keeping: UInt8(ascii: "/"))
    }

    /// The query's pairs decoded, encoded again and sorted by name, then value.
    static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = encode(URLPercentEncoding.decodedBytes(parts[0], strict: false) ?? [])
            return (name, parts.count > 1 ? encode(URLPercentEncoding.decodedBytes(parts[1], strict: false) ?? []) : "")
        }
        return pairs.sorted { a, b in
            a.0 == b.0 ? a.1.utf8.lexicographicallyPrecedes(b.1.utf8) : a.0.utf8.lexicographicallyPrecedes(b.0.utf8)
        }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The bytes percent-encoded (upper-case hexadecimal) except the unreserved characters
    /// (letters, digits, `-`, `.`, `_`, `~`) and `keeping`.
    private static func encode(_ bytes: [UInt8], keeping kept: UInt8? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            if URLReference.isUnreservedByte(byte) || byte == kept {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), HexDigits.upper[Int(byte >> 4)], HexDigits.upper[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `YYYYMMDDTHHMMSSZ` in UTC.
    static func timestamp(_ seconds: Int64) -> String {
        let parts = utc(seconds)
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// The `Date` botocore writes (Python's `email.utils.formatdate`): `Sun, 30 Aug 2015 12:36:00 -0000`.
    static func httpDate(_ seconds: Int64) -> String {
        let parts = utc(seconds)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) -0000"
    }

    private static func utc(_ seconds: Int64) -> tm {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return parts
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
