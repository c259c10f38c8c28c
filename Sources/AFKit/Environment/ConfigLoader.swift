import Glibc

/// Finds and reads the config file: `$AFCLI_CONFIG_DIR/config.json`, else
/// `$XDG_CONFIG_HOME/afcli/config.json`, else `~/.config/afcli/config.json` (the directory
/// sessions live in). A missing file is no error; anything else wrong with it is a `ConfigError`.
package enum ConfigLoader {
    /// The largest config file read (a config is a few KiB; this bounds a hostile one).
    package static let maximumBytes = 1 << 20
    /// The file's name inside the config directory.
    package static let fileName = "config.json"

    /// The config directory for `environment`: `$AFCLI_CONFIG_DIR` as given, else the XDG
    /// config directory (`UserDirectories`); nil when the user has no home directory.
    package static func directory(_ environment: [String: String]) -> String? {
        if let directory = environment["AFCLI_CONFIG_DIR"], !directory.isEmpty { return directory }
        return UserDirectories.afcliDirectory(.config, environment)
    }

    /// The config file's path for `environment`; nil when there is no config directory.
    package static func path(_ environment: [String: String]) -> String? {
        directory(environment).map { FileIO.join($0, fileName) }
    }

    /// What `load` found: the file, and whether others can read a file that holds secrets.
    package struct Loaded: Sendable {
        /// The decoded file.
        package var file: ConfigFile
        /// Whether the file holds secrets and its mode lets group or others read it.
        package var exposesSecrets: Bool
    }

    /// Reads and decodes the file at `path`; nil when there is none. A link is followed (the
    /// file is only read), but the result must be a regular file.
    /// `local_dir` is resolved here: `~/x` against the home directory of `environment`, a
    /// relative path against the file's own directory (so a config works from any working directory).
    package static func load(path: String, environment: [String: String] = [:]) throws(ConfigError) -> Loaded? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            // A directory on the way that this user may not search (HOME kept across sudo -u):
            // whether a file is there cannot be known, so there is none for this user. A file
            // that is there but unreadable stays an error.
            var info = stat()
            if code == EACCES, stat(path, &info) != 0, errno == EACCES { return nil }
            throw .unreadable(file: path, reason: SystemError.message(code))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(file: path, reason: SystemError.current.description)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(file: path, reason: "it is not a regular file")
        }
        guard info.st_size <= maximumBytes else { throw .tooLarge(file: path, limit: maximumBytes) }
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptorIO.readAll(descriptor, limit: maximumBytes)
        } catch {
            if error.code == EFBIG { throw .tooLarge(file: path, limit: maximumBytes) }
            throw .unreadable(file: path, reason: error.description)
        }
        var file = try ConfigFileDecoder.decode(bytes, path: path)
        for index in file.environments.indices {
            guard let directory = file.environments[index].localDirectory else { continue }
            file.environments[index].localDirectory = resolve(directory, configFile: path, environment: environment)
        }
        return Loaded(file: file, exposesSecrets: info.st_mode & 0o044 != 0 && file.holdsSecrets)
    }

    /// `directory` as a path to open: `~/x` under the home directory, absolute as it is, else
    /// below the config file's directory.
    package static func resolve(_ directory: String, configFile: String, environment: [String: String]) -> String {
        if directory.hasPrefix("/") { return directory }
        let expanded = UserDirectories.expandingTilde(directory, environment)
        if expanded != directory { return expanded }
        var relative = Substring(directory)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        if relative.isEmpty || relative == "." { return FileIO.directory(of: configFile) }
        return FileIO.join(FileIO.directory(of: configFile), String(relative))
    }
}
