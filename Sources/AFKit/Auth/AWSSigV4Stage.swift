#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `--aws-sigv4`: signs a prepared request with AWS Signature Version 4, the last request stage,
/// so that the signature covers the headers and body bytes actually sent (after encryption and
/// compression).
///
/// The scope is written as curl writes it, `PROVIDER1[:PROVIDER2[:REGION[:SERVICE]]]`: afcli's
/// signer is AWS's (`AWS4-HMAC-SHA256`, `X-Amz-*` fields), so the providers must be `aws` and
/// `amz`; a missing region or service is read from an AWS host name (`SERVICE.REGION.amazonaws.com`),
/// as curl does. The body is always hashed (never `UNSIGNED-PAYLOAD`), streamed files included:
/// `PayloadDigest` reads them once to hash and rewinds.
package struct AWSSigV4Stage: Sendable {
    /// The region, or nil to read it from the host.
    package var region: String?
    /// The service, or nil to read it from the host.
    package var service: String?
    package var credentials: AWSSigV4.Credentials

    /// Reads the scope of `--aws-sigv4`; `credentials` are the keys to sign with.
    package init(scope text: String, credentials: AWSSigV4.Credentials) throws(AuthStageError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 4 else { throw .badSigV4Scope(text, reason: "more than four parts") }
        guard parts[0].lowercased() == "aws" else {
            throw .badSigV4Scope(text, reason: "afcli signs for the provider aws only")
        }
        if parts.count > 1, parts[1].lowercased() != "amz" {
            throw .badSigV4Scope(text, reason: "the second provider must be amz")
        }
        let region = parts.count > 2 ? parts[2] : ""
        let service = parts.count > 3 ? parts[3] : ""
        for part in [region, service] where part.utf8.contains(where: { !Self.isScopeByte($0) }) {
            throw .badSigV4Scope(text, reason: "'\(part)' is not a region or service name")
        }
        self.region = region.isEmpty ? nil : region
        self.service = service.isEmpty ? nil : service
        self.credentials = credentials
    }

    /// The keys of `-a KEY:SECRET` when given, else of the environment (`AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, and `AWS_SESSION_TOKEN` with them: a session token belongs to the
    /// keys it was issued with, so it is not paired with keys typed on the command line).
    package static func credentials(
        auth: String?, environment: [String: String]
    ) throws(AuthStageError) -> AWSSigV4.Credentials {
        if let auth {
            let parts = auth.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else { throw .missingAWSKeys }
            return AWSSigV4.Credentials(accessKey: String(parts[0]), secretKey: String(parts[1]))
        }
        guard let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        else { throw .missingAWSKeys }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return AWSSigV4.Credentials(accessKey: key, secretKey: secret, sessionToken: token)
    }

    /// Signs `request` at `time` (seconds since the epoch; now when nil): its headers get the
    /// signer's `X-Amz-Date`, `X-Amz-Security-Token`, `X-Amz-Content-SHA256` (s3) and
    /// `Authorization`, in place of any of the same name.
    package func apply(to request: inout PreparedRequest, time: Int64? = nil) throws {
        let (region, service) = try scope(for: request.url)
        let payloadHash = try PayloadDigest.sha256(of: request, for: "--aws-sigv4")
        let signed = AWSSigV4.sign(
            AWSSigV4.Request(
                method: request.method, url: request.url, headers: request.headers.map { ($0.name, $0.value) },
                payloadHash: payloadHash),
            credentials: credentials, region: region, service: service, time: time ?? Int64(Glibc.time(nil)))
        request.headers = signed.headers.map { HTTPField(name: $0.name, value: $0.value) }
    }

    /// The region and service: the scope's, else from an AWS host name.
    package func scope(for url: String) throws(AuthStageError) -> (region: String, service: String) {
        if let region, let service { return (region, service) }
        let host = (URLReference(parsing: url).host ?? "").lowercased()
        let labels = host.split(separator: ".").map(String.init)
        // service.region.amazonaws.com (and .com.cn); s3.amazonaws.com is us-east-1.
        guard labels.count >= 3, host.hasSuffix(".amazonaws.com") || host.hasSuffix(".amazonaws.com.cn") else {
            throw .badSigV4Scope(
                "aws:amz:\(region ?? ""):\(service ?? "")",
                reason: "give the region and service: \(host.isEmpty ? "the URL" : host) is no AWS host name")
        }
        let derivedRegion = labels.count >= 4 ? labels[labels.count - 3 - (host.hasSuffix(".cn") ? 1 : 0)] : "us-east-1"
        return (region ?? derivedRegion, service ?? labels[0])
    }

    /// Letters, digits, `-` and `_`: what region and service names are made of.
    private static func isScopeByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_")
    }
}
