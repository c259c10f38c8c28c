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

/// Reads small files (certificates, keys) whole, without Foundation.
enum SmallFile {
    /// Why a read failed, in the system's words (`no such file or directory`).
    struct ReadError: Error {
        let reason: String
    }

    /// The largest file read whole: certificates are a few kilobytes.
    static let limit = 1 << 20

    /// The bytes of the file at `path`.
    static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(reason: systemReason(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(reason: systemReason(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw ReadError(reason: "not a regular file") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(reason: systemReason(errno))
            }
            if count == 0 { break }
            bytes += chunk.prefix(count)
            guard bytes.count <= limit else { throw ReadError(reason: "larger than a certificate file can be") }
        }
        return bytes
    }

    /// strerror's text with a lower-case first letter.
    static func systemReason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return lowercasedFirst(String(cString: text))
    }

    /// The text with its first letter in lower case (`No such file` → `no such file`).
    static func lowercasedFirst(_ message: String) -> String {
        guard let first = message.first else { return message }
        return first.lowercased() + message.dropFirst()
    }
}
