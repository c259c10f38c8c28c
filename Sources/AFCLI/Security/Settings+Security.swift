import AFKit
import Glibc

extension Settings {
    /// What `--verify` (and `-k/--insecure`) asks for, as HTTPie spells it.
    package enum Verification: Equatable, Sendable {
        /// Verify against the system's CAs (the default).
        case yes
        /// Accept any certificate and host name, as curl's `-k` does.
        case no
        /// Verify against the CA bundle file or hashed directory at this path instead.
        case path(String)
    }

    /// A `--tls-min` version.
    package enum TLSMinimum: String, CaseIterable, Equatable, Sendable {
        case tls12 = "1.2"
        case tls13 = "1.3"
    }
}

/// Checks the values of the TLS and reachability options as the parser reads them.
enum SecurityOptionParser {
    /// `yes`/`true`, `no`/`false` (any case), or an existing CA bundle file or directory.
    static func verification(_ text: String) throws(OptionValueError) -> Settings.Verification {
        switch text.lowercased() {
        case "yes", "true": return .yes
        case "no", "false": return .no
        default:
            var info = stat()
            guard !text.isEmpty, stat(text, &info) == 0 else {
                throw OptionValueError("is not yes, no, or an existing CA bundle file or directory")
            }
            return .path(text)
        }
    }

    /// `sha256//BASE64` (or several joined by `;`), checked now so a typo fails before sending.
    static func publicKeyPin(_ text: String) throws(OptionValueError) -> String {
        do {
            _ = try PinnedPublicKey.parseList(text)
        } catch {
            throw OptionValueError("is not a public key pin (sha256// and the base64 of 32 bytes, as afcli pin prints)")
        }
        return text
    }

    /// curl's `HOST:PORT:ADDRESS[,ADDRESS…]`, IPv6 addresses in brackets.
    static func resolveEntry(_ text: String) throws(OptionValueError) -> String {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65535).contains(port) else {
            throw OptionValueError("is not HOST:PORT:ADDRESS")
        }
        for address in parts[2].split(separator: ",", omittingEmptySubsequences: false) {
            let bare = address.hasPrefix("[") && address.hasSuffix("]") ? address.dropFirst().dropLast() : address
            guard SocketAddress(numeric: String(bare), port: port) != nil else {
                throw OptionValueError("has \"\(address)\", which is not an IP address")
            }
        }
        // libcurl matches entries against the host it connects to, which is the A-label of an
        // internationalized name (`bücher.example` → `xn--bcher-kva.example`).
        guard let host = RequestURL.asciiHost(String(parts[0])) else {
            throw OptionValueError("has \"\(parts[0])\", which is not a valid host name")
        }
        return "\(host):\(parts[1]):\(parts[2])"
    }
}

/// Turns the TLS options into AF's security policy and libcurl's settings, refusing what AF
/// refuses (spec/AFNETWORKING.md §6) before anything is sent.
enum SecurityOptions {
    /// The policy the options describe, with pinned certificate files read; throws
    /// `SecurityPolicyError` for unreadable files.
    static func policy(from options: Settings) throws(SecurityPolicyError) -> SecurityPolicy {
        var policy = SecurityPolicy()
        switch options.tls.verify {
        case nil, .yes?:
            break
        case .no?:
            policy.allowInvalidCertificates = true
        case .path(let path)?:
            policy.trustStore = try TrustStore.at(path: path)
        }
        // curl's -k also skips the host name (AF: allowInvalidCertificates with validatesDomainName
        // off); --verify-host keeps it, which AF only allows together with pins.
        policy.validatesDomainName = options.tls.verifyHost ?? (options.tls.verify != .no)
        for text in options.tls.pinnedKeys {
            policy.pinnedPublicKeys += try PinnedPublicKey.parseList(text)
        }
        for path in options.tls.pinnedCertificateFiles {
            policy.pinnedCertificates.append(try PinnedCertificate.load(path: path))
        }
        // Checked here so a missing file is bad input (exit 2), not a TLS failure after connecting.
        for path in [options.tls.clientCertificate, options.tls.clientKey].compactMap({ $0 })
        where access(path, R_OK) != 0 {
            throw .unreadableCertificateFile(path: path, reason: SystemError.message(errno))
        }
        policy.clientCertificate = options.tls.clientCertificate
        policy.clientKey = options.tls.clientKey
        switch options.tls.tlsMinimum {
        case .tls12?: policy.minimumTLSVersion = .tls12
        case .tls13?: policy.minimumTLSVersion = .tls13
        case nil: break
        }
        return policy
    }

    /// The libcurl TLS settings for a request to `url`, after AF's checks.
    static func tlsOptions(_ options: Settings, forURL url: String) throws(SecurityPolicyError) -> TLSOptions {
        let policy = try policy(from: options)
        try policy.validate(forURL: url)
        return policy.tlsOptions
    }

    /// Sets the TLS settings and `--resolve` entries of a client that will request `url`.
    static func configure(
        _ client: inout TransferSettings, options: Settings, url: String
    ) throws(SecurityPolicyError) {
        let policy = try policy(from: options)
        try policy.validate(forURL: url)
        configure(&client, options: options, policy: policy)
    }

    /// Sets the TLS settings of a policy already made (and checked for the URL by the caller) and
    /// the `--resolve` entries; a batch makes the policy once for many requests.
    static func configure(_ client: inout TransferSettings, options: Settings, policy: SecurityPolicy) {
        client.tls = policy.tlsOptions
        client.resolve = options.tls.resolve
    }

    /// The message for a refused policy, naming afcli's options beside AF's terms.
    static func message(for error: SecurityPolicyError) -> String {
        switch error {
        case .domainValidationNeedsPinning:
            return "--insecure with --verify-host needs --pin-key or --pin-cert (AFNetworking: \"In order to "
                + "validate a domain name for self signed certificates, you MUST use pinning.\")"
        case .pinningOverPlainHTTP(let url):
            return "--pin-key and --pin-cert need an https:// URL, not \(url)"
        case .mixedPinningModes:
            return "--pin-key and --pin-cert cannot be combined (AFNetworking pins keys or certificates, not both)"
        case .pinnedCertificatesWithTrustStore:
            return "--pin-cert cannot be combined with --verify=PATH: the pinned certificates are the only "
                + "trusted ones"
        case .clientKeyWithoutCertificate:
            return "--cert-key needs --cert"
        default:
            return error.description
        }
    }
}
