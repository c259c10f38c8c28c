#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a `.http` file may read of the machine it runs on: the files under one directory, as
/// Hurl's `--file-root` bounds them (`< PATH`, `<@ PATH`, and the `.env` file `{{$dotenv NAME}}`
/// reads), and the environment variables allowed by name (`{{$processEnv NAME}}`). A file
/// written by someone else could otherwise send `~/.aws/credentials` or `$GITHUB_TOKEN` to any
/// host.
package struct HTTPFileAccess: Sendable {
    /// The directory files must lie under, its symbolic links resolved.
    package let root: String
    /// How messages name where the root came from (`the .http file's directory`, `--file-root`).
    package let rootOrigin: String
    /// The names of the environment variables the file may read: exact names, or glob patterns
    /// with `*` and `?` (`API_*`).
    package let allowedNames: [String]

    /// `root` resolved (it must be a directory); an error names why it cannot be the root.
    package init(root: String, rootOrigin: String, allowedNames: [String]) throws(HTTPFileError) {
        guard let resolved = Self.realPath(root) else {
            throw HTTPFileError(line: 0, reason: "cannot be the file root: " + SystemError.message(errno))
        }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw HTTPFileError(line: 0, reason: "is not a directory")
        }
        self.root = resolved
        self.rootOrigin = rootOrigin
        self.allowedNames = allowedNames
    }

    /// Whether `name` is an environment variable name `--allow-env` may list: letters, digits
    /// and `_`, with `*` and `?` as wildcards.
    package static func isValidPattern(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?")
            }
    }

    /// Whether the file may read the environment variable `name`.
    package func allowsVariable(_ name: String) -> Bool {
        allowedNames.contains { fnmatch($0, name, 0) == 0 }
    }

    /// `path` (absolute, or relative to the working directory) with `..` and symbolic links
    /// resolved, when it lies under the root; otherwise why not, for `marker` (`<`, `<@`, `.env`)
    /// as the file wrote it (`written`). A path that does not exist is resolved as far as its
    /// directory, so that the error for a missing file inside the root stays "no such file".
    package func checked(_ path: String, marker: String, written: String, line: Int) throws(HTTPFileError) -> String {
        let resolved = Self.realPath(path) ?? Self.resolvedMissing(path)
        guard Self.isUnder(resolved, root) else {
            // A path that lies inside as written gets outside through a symbolic link: say where.
            let whereItIs =
                Self.isUnder(Self.lexicallyNormalized(path), root) ? "leads to \(resolved), outside" : "is outside"
            throw HTTPFileError(
                line: line,
                reason: "\(marker) \(written) \(whereItIs) the file root \(root) (\(rootOrigin)), which bounds the "
                    + "files a .http file may read: --file-root DIR reads files under DIR")
        }
        return resolved
    }

    /// Whether `path` is `directory` or lies inside it (both resolved).
    static func isUnder(_ path: String, _ directory: String) -> Bool {
        if directory == "/" { return path.hasPrefix("/") }
        return path == directory || path.hasPrefix(directory + "/")
    }

    /// realpath(3) of `path`; nil when a part of it does not exist or cannot be read.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` made absolute (from the working directory) with `.` and `..` applied, its links
    /// left as they are.
    static func lexicallyNormalized(_ path: String) -> String {
        var base = "/"
        if !path.hasPrefix("/") { base = realPath(".") ?? "/" }
        return applying(path.split(separator: "/").map(String.init), to: base)
    }

    /// `base` followed by `parts`, `.` and `..` applied.
    private static func applying(_ parts: [String], to base: String) -> String {
        var components = base.split(separator: "/").map(String.init)
        for part in parts {
            switch part {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(part)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// A path realpath(3) cannot resolve (a part of it is missing, or a link leads nowhere),
    /// resolved as far as it exists: `.` and `..` applied and every symbolic link followed, the
    /// missing rest taken as written.
    static func resolvedMissing(_ path: String) -> String {
        var pending = (path.hasPrefix("/") ? [] : (realPath(".") ?? "/").split(separator: "/").map(String.init))
            + path.split(separator: "/").map(String.init)
        var resolved: [String] = []
        var links = 0
        while !pending.isEmpty {
            let part = pending.removeFirst()
            if part == "." { continue }
            if part == ".." {
                _ = resolved.popLast()
                continue
            }
            let candidate = "/" + (resolved + [part]).joined(separator: "/")
            var info = stat()
            // 40 links, as the kernel follows: more is a loop, which opening the path refuses.
            if links < 40, lstat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
                links += 1
                var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let count = readlink(candidate, &target, Int(PATH_MAX))
                if count > 0 {
                    let text = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    if text.hasPrefix("/") { resolved = [] }
                    pending = text.split(separator: "/").map(String.init) + pending
                    continue
                }
            }
            resolved.append(part)
        }
        return "/" + resolved.joined(separator: "/")
    }
}
