import AFCurl
import Glibc

/// Certificates pinned from one file (`--pin-cert`): PEM with one or more certificates, or a
/// single DER certificate such as the `.cer` files AFNetworking loads from the app bundle.
package struct PinnedCertificate: Equatable, Sendable {
    /// The file the certificates came from.
    package let path: String
    /// The certificates in the file, in order.
    package let certificates: [PeerCertificate]
    /// The certificates as PEM text, which becomes libcurl's CA blob.
    package let pem: String

    /// Reads and parses `path`; throws when the file is unreadable or holds no certificate.
    package static func load(path: String) throws(SecurityPolicyError) -> PinnedCertificate {
        let bytes: [UInt8]
        do {
            bytes = try SmallFile.read(path)
        } catch {
            throw .unreadableCertificateFile(path: path, reason: error.reason)
        }
        guard let file = CertificateFile(bytes: bytes) else { throw .notACertificate(path: path) }
        return PinnedCertificate(path: path, certificates: file.certificates, pem: file.pem)
    }

    package init(path: String, certificates: [PeerCertificate], pem: String) {
        self.path = path
        self.certificates = certificates
        self.pem = pem
    }
}
