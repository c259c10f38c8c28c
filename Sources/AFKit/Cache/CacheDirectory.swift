import Glibc

/// Where the cache lives (`$XDG_CACHE_HOME/afcli`, else `~/.cache/afcli`) and how its directories
/// are made: 0700, never through a symbolic link, and only the user's own.
package enum CacheDirectory {
    /// The cache directory for `environment`; nil when the user has no home directory and
    /// `XDG_CACHE_HOME` is not absolute.
    package static func path(environment: [String: String]) -> String? {
        UserDirectories.afcliDirectory(.cache, environment)
    }

    /// Makes sure `path` is a directory of the user's own that no one else can write, creating
    /// it (and its parent, for `~/.cache`) 0700 when missing; a symbolic link is refused.
    static func prepare(_ path: String, createParent: Bool = true) throws(CacheError) {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw .cannotOpen(path: path, code: errno) }
            if createParent {
                let parent = FileIO.directory(of: path)
                if !FileIO.exists(parent) { _ = mkdir(parent, 0o700) }
            }
            if mkdir(path, 0o700) != 0, errno != EEXIST { throw .cannotOpen(path: path, code: errno) }
            guard lstat(path, &info) == 0 else { throw .cannotOpen(path: path, code: errno) }
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            throw .unsafeDirectory(path: path, reason: "it is a symbolic link, which afcli does not follow")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .unsafeDirectory(path: path, reason: "it is not a directory")
        }
        guard info.st_uid == geteuid() else { throw .unsafeDirectory(path: path, reason: "it belongs to another user") }
        if info.st_mode & 0o022 != 0 {
            throw .unsafeDirectory(path: path, reason: "others can write to it")
        }
    }
}
