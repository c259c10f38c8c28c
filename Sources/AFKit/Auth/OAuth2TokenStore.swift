import AFCurl
import Glibc

/// Where `-A oauth2` keeps tokens between runs when there is no session: one 0600 file per token
/// URL, client id and scope in a 0700 directory (`$XDG_STATE_HOME/afcli/tokens`), named by the
/// SHA-256 of the three, holding the token and when it expires. Files are read only when they are
/// the user's own regular files, never through a symbolic link, and replaced atomically; an
/// expired or unreadable one is as good as none.
package struct OAuth2TokenStore: Sendable {
    /// The directory; nil keeps tokens in memory only (no home directory).
    package var directory: String?

    package init(directory: String?) {
        self.directory = directory
    }

    /// A token and when it expires (seconds since the epoch; nil when the server did not say).
    package struct Entry: Equatable, Sendable {
        package var accessToken: String
        package var expiresAt: Int64?
    }

    /// The file for a token URL, client id and scope.
    package func path(tokenURL: String, clientID: String, scope: String?) -> String? {
        guard let directory else { return nil }
        let key = SHA256.hex(SHA256.hash(Array("\(tokenURL)\n\(clientID)\n\(scope ?? "")".utf8)))
        return FileIO.join(directory, key + ".json")
    }

    /// The stored entry at `path`, if any and readable.
    package func load(_ path: String) -> Entry? {
        guard let descriptor = try? FileIO.openOwnedRegularFile(path, flags: O_RDONLY) else { return nil }
        defer { close(descriptor) }
        guard let bytes = try? FileDescriptorIO.readAll(descriptor, limit: 64 * 1024),
            case .object(let members)? = try? JSONParser.parse(bytes: bytes),
            case .string(let token)? = members.first(where: { $0.key == "access_token" })?.value
        else { return nil }
        var expiresAt: Int64?
        if case .number(let text)? = members.first(where: { $0.key == "expires_at" })?.value { expiresAt = Int64(text) }
        return Entry(accessToken: token, expiresAt: expiresAt)
    }

    /// Writes `entry` to `path` (0600, atomically, directories 0700).
    package func save(_ entry: Entry, to path: String) throws {
        var members = [JSONMember(key: "access_token", value: .string(entry.accessToken))]
        if let expiresAt = entry.expiresAt { members.append(JSONMember(key: "expires_at", value: .number("\(expiresAt)"))) }
        try SessionStore.write(try JSONWriter.encode(.object(members)), to: path)
    }

    /// Removes the entry at `path` (a token the API refused).
    package func remove(_ path: String) {
        unlink(path)
    }
}
