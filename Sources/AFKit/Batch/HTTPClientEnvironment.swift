/// The variables of one environment from `http-client.env.json` and
/// `http-client.private.env.json` (the JetBrains HTTP Client's environment files), as plain data.
///
/// Each file is a JSON object of environments, each an object of variables. The private file's
/// value of a variable wins over the public file's, and an environment's own values win over
/// those of `$shared`, which every environment starts from. Strings, numbers and booleans become text;
/// objects and arrays (such as JetBrains' `SSLConfiguration`) are not variables and are ignored.
package enum HTTPClientEnvironment {
    /// The public file's name.
    package static let publicFile = "http-client.env.json"
    /// The private file's name (secrets, kept out of version control).
    package static let privateFile = "http-client.private.env.json"
    /// The environment whose variables every environment has (JetBrains' `$shared`), under its own.
    package static let sharedName = "$shared"
    /// The largest environment file read (1 MiB).
    package static let maximumFileSize = 1 << 20

    /// One environment file's contents, `nil` when it does not exist.
    package struct Files {
        package var publicBytes: [UInt8]?
        package var privateBytes: [UInt8]?

        package init(publicBytes: [UInt8]?, privateBytes: [UInt8]?) {
            self.publicBytes = publicBytes
            self.privateBytes = privateBytes
        }
    }

    /// The variables of environment `name`, private over public.
    package static func variables(named name: String, in files: Files) throws(HTTPClientEnvironmentError) -> [String:
        String]
    {
        let publicEnvironments = try files.publicBytes.map { bytes throws(HTTPClientEnvironmentError) in
            try environments(bytes, file: publicFile)
        }
        let privateEnvironments = try files.privateBytes.map { bytes throws(HTTPClientEnvironmentError) in
            try environments(bytes, file: privateFile)
        }
        if publicEnvironments == nil, privateEnvironments == nil { throw .noFiles(environment: name) }
        let publicOne = publicEnvironments?.first { $0.name == name }
        let privateOne = privateEnvironments?.first { $0.name == name }
        if (publicOne == nil && privateOne == nil) || name == sharedName {
            var known: [String] = []
            for environment in (publicEnvironments ?? []) + (privateEnvironments ?? [])
            where !known.contains(environment.name) && environment.name != sharedName {
                known.append(environment.name)
            }
            throw .unknownEnvironment(name, known: known)
        }
        // Lowest priority first: shared public, shared private, the environment's public, its private.
        let layers = [
            publicEnvironments?.first { $0.name == sharedName }, privateEnvironments?.first { $0.name == sharedName },
            publicOne, privateOne,
        ]
        var values: [String: String] = [:]
        for layer in layers {
            for (key, value) in layer?.values ?? [] { values[key] = value }
        }
        return values
    }

    /// The environments of one file in order, each with its text values.
    private static func environments(
        _ bytes: [UInt8], file: String
    ) throws(HTTPClientEnvironmentError) -> [(name: String, values: [(String, String)])] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: bytes)
        } catch {
            let line = bytes.prefix(error.offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw .malformed(file: file, line: line, reason: error.reason)
        }
        guard case .object(let members) = document else {
            throw .malformed(file: file, line: 1, reason: "expected an object of environments")
        }
        return try members.map { member throws(HTTPClientEnvironmentError) in
            guard case .object(let variables) = member.value else {
                throw .malformed(file: file, line: 1, reason: "environment \"\(member.key)\" is not an object")
            }
            let values: [(String, String)] = variables.compactMap { variable in
                switch variable.value {
                case .string(let text): return (variable.key, text)
                case .number(let literal): return (variable.key, literal)
                case .bool(let flag): return (variable.key, flag ? "true" : "false")
                case .null, .array, .object: return nil
                }
            }
            return (member.key, values)
        }
    }
}

/// Why the environment files could not give an environment's variables.
package enum HTTPClientEnvironmentError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// Neither file exists beside the `.http` file.
    case noFiles(environment: String)
    /// No file has the environment; `chosenBy` is what named it (`--env`, `$AFCLI_ENV`).
    case unknownEnvironment(String, known: [String], chosenBy: String = "--env")
    /// A file is not the expected JSON.
    case malformed(file: String, line: Int, reason: String)

    /// Environment files that cannot give the environment are bad input.
    package var failureClass: FailureClass { .badInput }

    package var description: String {
        switch self {
        case .noFiles(let environment):
            return "--env \(environment): there is no \(HTTPClientEnvironment.publicFile) "
                + "or \(HTTPClientEnvironment.privateFile) beside the file"
        case .unknownEnvironment(let name, let known, let chosenBy):
            let list = known.isEmpty ? "none is defined" : "known: " + known.joined(separator: ", ")
            return "\(chosenBy) \(name): no such environment in the environment files (\(list))"
        case .malformed(let file, let line, let reason):
            return "\(file):\(line): \(reason)"
        }
    }
}
