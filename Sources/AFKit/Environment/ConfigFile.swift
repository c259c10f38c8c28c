/// The config file (`config.json`) as afcli reads it: the options prepended to every command
/// line and the named environments, in the file's order.
///
/// ```json
/// {"default_options": ["--follow"],
///  "environments": {"dev": {"base_url": "http://127.0.0.1:8080/api/", "params": {"v": "1"}}}}
/// ```
package struct ConfigFile: Equatable, Sendable {
    /// Where the file was read from.
    package var path: String
    /// Options prepended to argv, parsed by the same parser (`--no-X` on the command line undoes one).
    package var defaultOptions: [String] = []
    /// The environments, in the order the file lists them.
    package var environments: [EnvironmentProfile] = []
    /// Keys afcli does not know, as dotted paths (`environments.dev.colour`), for a warning each.
    package var unknownKeys: [String] = []

    package init(path: String) {
        self.path = path
    }

    /// The environment named `name`, if the file defines it.
    package func environment(named name: String) -> EnvironmentProfile? {
        environments.first { $0.name == name }
    }

    /// Whether the file holds something only its owner should read: an `Authorization` header
    /// (or another header `SecretRedaction` hides), an encryption command, a `password`/`token`
    /// parameter, or a base URL or simulated domain with `user:password@`.
    package var holdsSecrets: Bool {
        environments.contains { profile in
            profile.encryptCommand != nil || profile.decryptCommand != nil
                || profile.headers.contains { SecretRedaction.isSecretHeader(name: $0.name, value: $0.value) }
                || profile.parameters.contains { SecretRedaction.isSecretParameter(name: $0.name) }
                || [profile.baseURL, profile.simulateDomain].contains {
                    $0.map(SecretRedaction.urlHoldsCredentials) ?? false
                }
        }
    }
}

/// Turns the parsed JSON of a config file into a `ConfigFile`, checking every value's kind.
package enum ConfigFileDecoder {
    /// Decodes `bytes` read from `path`; a syntax error gives its line and column.
    package static func decode(_ bytes: [UInt8], path: String) throws(ConfigError) -> ConfigFile {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes: bytes)
        } catch {
            let (line, column) = position(of: error.offset, in: bytes)
            throw .syntax(file: path, line: line, column: column, reason: error.reason)
        }
        var decoder = Decoder(file: ConfigFile(path: path))
        try decoder.decodeRoot(root)
        return decoder.file
    }

    /// The 1-based line and column (in Unicode scalars) of the byte at `offset`.
    package static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// The decoding state: the file so far; each method checks one level of the document.
    private struct Decoder {
        var file: ConfigFile

        mutating func decodeRoot(_ root: JSONValue) throws(ConfigError) {
            let members = try object(root, at: "the top level")
            for member in members {
                switch member.key {
                case "default_options":
                    file.defaultOptions = try strings(member.value, at: "default_options")
                case "environments":
                    for environment in try object(member.value, at: "environments") {
                        file.environments.append(try profile(environment.key, environment.value))
                    }
                default:
                    file.unknownKeys.append(member.key)
                }
            }
        }

        mutating func profile(_ name: String, _ value: JSONValue) throws(ConfigError) -> EnvironmentProfile {
            let path = "environments." + name
            guard !name.isEmpty else { throw invalid(path, "is an environment without a name") }
            var profile = EnvironmentProfile(name: name)
            for member in try object(value, at: path) {
                let key = path + "." + member.key
                switch member.key {
                case "base_url": profile.baseURL = try string(member.value, at: key)
                case "params": profile.parameters = try parameters(member.value, at: key)
                case "headers": profile.headers = try headers(member.value, at: key)
                case "envelope": profile.envelope = try envelope(member.value, at: key)
                case "encrypt": profile.encryptCommand = try string(member.value, at: key)
                case "decrypt": profile.decryptCommand = try string(member.value, at: key)
                case "simulate_domain": profile.simulateDomain = try string(member.value, at: key)
                case "local_dir": profile.localDirectory = try string(member.value, at: key)
                case "cache": profile.cachePolicy = try string(member.value, at: key)
                case "cache_namespace": profile.cacheNamespace = try string(member.value, at: key)
                case "cache_ttl": profile.cacheLifetime = try string(member.value, at: key)
                default: file.unknownKeys.append(key)
                }
            }
            return profile
        }

        func parameters(_ value: JSONValue, at path: String) throws(ConfigError) -> [CommonParameter] {
            var result: [CommonParameter] = []
            for member in try object(value, at: path) {
                if case .string(let text) = member.value {
                    result.append(CommonParameter(name: member.key, value: .text(text)))
                } else {
                    let json: [UInt8]
                    do {
                        json = try JSONWriter.encode(member.value)
                    } catch {
                        throw invalid(path + "." + member.key, "cannot be written as JSON: \(error)")
                    }
                    result.append(
                        CommonParameter(name: member.key, value: .json(String(decoding: json, as: UTF8.self))))
                }
            }
            return result
        }

        func headers(_ value: JSONValue, at path: String) throws(ConfigError) -> [HTTPField] {
            var result: [HTTPField] = []
            for member in try object(value, at: path) {
                let key = path + "." + member.key
                let text = try string(member.value, at: key)
                guard !member.key.isEmpty, member.key.utf8.allSatisfy(RequestSerializer.isTokenByte) else {
                    throw invalid(key, "is not a header name (letters, digits and !#$%&'*+-.^_`|~)")
                }
                guard !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }) else {
                    throw invalid(key, "contains a line break or NUL")
                }
                result.append(HTTPField(name: member.key, value: text))
            }
            return result
        }

        mutating func envelope(_ value: JSONValue, at path: String) throws(ConfigError) -> EnvelopeSpec {
            var envelope = EnvelopeSpec()
            for member in try object(value, at: path) {
                let key = path + "." + member.key
                switch member.key {
                case "status": envelope.statusKey = try string(member.value, at: key)
                case "message": envelope.messageKey = try string(member.value, at: key)
                case "result": envelope.resultKey = try string(member.value, at: key)
                case "success": envelope.success = try statuses(member.value, at: key)
                case "common_failure": envelope.commonFailure = try statuses(member.value, at: key)
                default: file.unknownKeys.append(key)
                }
            }
            return envelope
        }

        /// Status values as text: strings as they are, numbers as written; one value or a list.
        func statuses(_ value: JSONValue, at path: String) throws(ConfigError) -> [String] {
            let elements: [JSONValue]
            if case .array(let list) = value { elements = list } else { elements = [value] }
            var result: [String] = []
            for element in elements {
                switch element {
                case .string(let text), .number(let text): result.append(text)
                default: throw invalid(path, "must hold strings or numbers")
                }
            }
            return result
        }

        func object(_ value: JSONValue, at path: String) throws(ConfigError) -> [JSONMember] {
            guard case .object(let members) = value else { throw invalid(path, "must be an object") }
            return members
        }

        func string(_ value: JSONValue, at path: String) throws(ConfigError) -> String {
            guard case .string(let text) = value else { throw invalid(path, "must be a string") }
            return text
        }

        func strings(_ value: JSONValue, at path: String) throws(ConfigError) -> [String] {
            guard case .array(let elements) = value else { throw invalid(path, "must be a list of strings") }
            var result: [String] = []
            for element in elements {
                guard case .string(let text) = element else { throw invalid(path, "must be a list of strings") }
                result.append(text)
            }
            return result
        }

        func invalid(_ path: String, _ reason: String) -> ConfigError {
            .invalidValue(file: file.path, path: path, reason: reason)
        }
    }
}
