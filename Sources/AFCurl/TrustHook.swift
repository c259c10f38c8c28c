import CCurlShim

/// One certificate of a server's chain as the trust hook saw it.
package struct PeerCertificate: Equatable, Sendable {
    /// The subject, RFC 2253 style (`CN=localhost,O=Example`).
    package var subject: String
    /// The issuer, RFC 2253 style.
    package var issuer: String
    /// SHA-256 of the DER SubjectPublicKeyInfo: what `sha256//` pins name.
    package var keySHA256: [UInt8]
    /// SHA-256 of the whole DER certificate.
    package var certificateSHA256: [UInt8]

    package init(subject: String, issuer: String, keySHA256: [UInt8], certificateSHA256: [UInt8]) {
        self.subject = subject
        self.issuer = issuer
        self.keySHA256 = keySHA256
        self.certificateSHA256 = certificateSHA256
    }

    /// Copies the shim's description out of its fixed-size C arrays.
    init(_ info: afcurl_certificate_info) {
        var info = info
        subject = withUnsafeBytes(of: &info.subject) { PeerCertificate.string(from: $0) }
        issuer = withUnsafeBytes(of: &info.issuer) { PeerCertificate.string(from: $0) }
        keySHA256 = withUnsafeBytes(of: &info.key_sha256) { Array($0) }
        certificateSHA256 = withUnsafeBytes(of: &info.certificate_sha256) { Array($0) }
    }

    /// The UTF-8 text before the first NUL of a C character array.
    private static func string(from bytes: UnsafeRawBufferPointer) -> String {
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}

/// The Swift owner of a C trust hook: chain-wide pin checks and a record of the chain, for one
/// handle (see ccurl_tls.h).
///
/// libcurl's CURLOPT_PINNEDPUBLICKEY only compares the leaf's key; AFNetworking accepts a pinned
/// key anywhere in the chain, so afcli verifies the chain itself through OpenSSL when it can.
final class TrustHook {
    /// The `afcurl_trust_hook *`.
    private let pointer: OpaquePointer

    /// Whether libcurl's TLS backend is the OpenSSL the shim was built against.
    static var isSupported: Bool { afcurl_trust_hook_supported() != 0 }

    /// A hook enforcing the pins of `tls` (none: it only records the chain); nil when out of memory.
    init?(tls: TLSOptions) {
        let mode: afcurl_pin_mode
        let pins: [[UInt8]]
        if !tls.pinnedCertificateDigests.isEmpty {
            mode = AFCURL_PIN_CERTIFICATE
            pins = tls.pinnedCertificateDigests
        } else if !tls.pinnedKeyDigests.isEmpty {
            mode = AFCURL_PIN_PUBLIC_KEY
            pins = tls.pinnedKeyDigests
        } else {
            mode = AFCURL_PIN_NONE
            pins = []
        }
        guard let pointer = afcurl_trust_hook_create(mode, tls.verifyPeer ? 1 : 0) else { return nil }
        self.pointer = pointer
        for pin in pins where pin.count == Int(AFCURL_SHA256_LENGTH) {
            _ = pin.withUnsafeBufferPointer { afcurl_trust_hook_add_pin(pointer, $0.baseAddress) }
        }
    }

    deinit {
        afcurl_trust_hook_free(pointer)
    }

    /// Makes the hook verify every handshake of `handle`.
    func install(on handle: UnsafeMutableRawPointer) throws(CurlError) {
        let code = afcurl_trust_hook_install(handle, pointer)
        guard code == CURLE_OK else { throw CurlError.setup("could not set up certificate pinning", code: code) }
        afcurl_trust_hook_reset(pointer)
    }

    /// Whether a handshake ran the hook since it was installed.
    var ran: Bool { afcurl_trust_hook_ran(pointer) != 0 }

    /// Whether pins were set and the last chain matched none of them.
    var mismatched: Bool { afcurl_trust_hook_mismatched(pointer) != 0 }

    /// OpenSSL's verification result for the last chain (0 when it verified).
    var verifyError: Int { afcurl_trust_hook_verify_error(pointer) }

    /// Whether `chain` is the verified chain up to its trust anchor (else: as the server sent it).
    var chainIsVerified: Bool { afcurl_trust_hook_chain_verified(pointer) != 0 }

    /// The last chain, leaf first.
    var chain: [PeerCertificate] {
        (0..<afcurl_trust_hook_chain_count(pointer)).compactMap { index in
            afcurl_trust_hook_chain_certificate(pointer, index).map { PeerCertificate($0.pointee) }
        }
    }
}

/// Certificates read from a file the user named (`--pin-cert`), PEM or DER.
package struct CertificateFile: Sendable {
    /// The certificates, in file order.
    package var certificates: [PeerCertificate]
    /// All of them as PEM text, for libcurl's CA blob.
    package var pem: String

    /// Reads the certificates in `bytes`; nil when there are none (not PEM, not one DER certificate).
    package init?(bytes: [UInt8]) {
        let capacity = 64
        var infos = [afcurl_certificate_info](repeating: afcurl_certificate_info(), count: capacity)
        var text: UnsafeMutablePointer<CChar>?
        let count = bytes.withUnsafeBufferPointer { input in
            infos.withUnsafeMutableBufferPointer { output in
                afcurl_read_certificates(input.baseAddress, input.count, output.baseAddress, Int32(capacity), &text)
            }
        }
        defer { afcurl_free(text) }
        guard count > 0, let text else { return nil }
        certificates = infos.prefix(Int(min(count, Int32(capacity)))).map { PeerCertificate($0) }
        pem = String(cString: text)
    }
}
