import AFKit

/// What the config file holds and how an environment's base URL is joined to a typed URL.
enum ConfigHarnesses {
    /// The path the fuzzed config pretends to be read from.
    private static let path = "/fuzz/afcli/config.json"

    /// Input: a `config.json`. A syntax error points at a line and column from 1; what decodes
    /// has named environments that can be found by name, header names that are tokens and
    /// values without line breaks; each environment's base URL and local directory are used as a
    /// request would use them.
    static func configFile(_ input: UnsafeRawBufferPointer) {
        let file: ConfigFile
        do {
            file = try ConfigFileDecoder.decode(Array(input), path: path)
        } catch {
            if case .syntax(_, let line, let column, _) = error {
                FuzzInvariant.check(line >= 1 && column >= 1, "syntax error at \(line):\(column)")
            }
            FuzzInvariant.check(!error.description.isEmpty, "config errors have a message")
            return
        }
        _ = file.holdsSecrets
        for profile in file.environments {
            FuzzInvariant.check(!profile.name.isEmpty, "environments have names")
            FuzzInvariant.check(file.environment(named: profile.name) != nil, "\(profile.name) is found by name")
            for header in profile.headers {
                FuzzInvariant.check(
                    !header.name.isEmpty && header.name.utf8.allSatisfy(isTokenByte),
                    "header name \(header.name.debugDescription) is a token")
                FuzzInvariant.check(
                    !header.value.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 },
                    "header value \(header.value.debugDescription) has no line break")
            }
            if let directory = profile.localDirectory {
                let resolved = ConfigLoader.resolve(directory, configFile: path, environment: ["HOME": "/home/fuzz"])
                FuzzInvariant.check(
                    resolved.hasPrefix("/"), "local_dir \(directory.debugDescription) resolves absolute")
            }
            if let base = profile.baseURL {
                joinChecked("users/list?page=2", base: base)
                joinChecked("/a/../b#top", base: base)
            }
        }
    }

    /// Input: the URL typed, then optionally NUL and the environment's base URL.
    static func environmentURL(_ input: UnsafeRawBufferPointer) {
        let fields = FuzzInput.fields(input)
        joinChecked(fields[0], base: fields.count > 1 ? fields[1] : nil)
        _ = EnvironmentURL.isAbsolute(fields[0])
    }

    /// Whether `byte` may stand in an RFC 9110 token (a header name).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Joins `text` to `base`: what joins is a request URL that making again does not change (what
    /// afcli prints is what it sends), and its API path has no leading `/`.
    private static func joinChecked(_ text: String, base: String?) {
        guard let joined = try? EnvironmentURL.join(text, base: base) else { return }
        FuzzInvariant.check(!joined.apiPath.hasPrefix("/"), "API path \(joined.apiPath.debugDescription)")
        let again = try? RequestURL.make(from: joined.url)
        FuzzInvariant.check(
            again == joined.url,
            "joined URL \(joined.url.debugDescription) is stable (\(String(describing: again?.debugDescription)))")
    }
}
