#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Checks, before anything is sent, that `-A ntlm` and `-A negotiate` can work here: libcurl has
/// the scheme, and for Negotiate a Kerberos ticket is where the system keeps it. Without them
/// libcurl would quietly send the request without credentials and show the server's 401.
package enum ChallengeAuthCheck {
    /// Throws when `scheme` cannot be used here. `environment` looks up `KRB5CCNAME`.
    package static func check(_ scheme: ChallengeScheme, environment: (String) -> String?) throws(AuthStageError) {
        guard scheme != .digest else { return }
        guard scheme.isSupported else { throw .schemeUnsupported(scheme.rawValue) }
        if scheme == .negotiate, let cache = missingTicketCache(environment: environment) {
            throw .noKerberosTicket(cache: cache)
        }
    }

    /// The credential cache file that should hold a ticket and does not exist; nil when it exists
    /// or when the cache is not a file afcli can look at (a keyring, KCM, a directory, a cache
    /// named in krb5.conf): GSS-API then decides, and the server's 401 is what shows.
    static func missingTicketCache(environment: (String) -> String?) -> String? {
        var path: String
        if let name = environment("KRB5CCNAME"), !name.isEmpty {
            if name.hasPrefix("FILE:") {
                path = String(name.dropFirst(5))
            } else if name.contains(":") {
                return nil
            } else {
                path = name
            }
        } else {
            // MIT Kerberos's default is FILE:/tmp/krb5cc_UID unless krb5.conf names another.
            if let config = environment("KRB5_CONFIG") ?? Optional("/etc/krb5.conf"), configNamesCache(config) {
                return nil
            }
            path = "/tmp/krb5cc_\(getuid())"
        }
        return access(path, F_OK) == 0 ? nil : path
    }

    /// Whether a krb5.conf names its own default cache (`default_ccache_name`).
    private static func configNamesCache(_ path: String) -> Bool {
        guard let file = fopen(path, "r") else { return false }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            if String(cString: line).contains("default_ccache_name") { return true }
        }
        return false
    }
}
