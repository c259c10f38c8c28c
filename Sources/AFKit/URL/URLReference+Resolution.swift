extension URLReference {
    /// Resolves `reference` against this base with RFC 3986 §5.2.2 (strict: a reference with a
    /// scheme is absolute), merging paths and removing dot segments.
    package func resolving(_ reference: URLReference) -> URLReference {
        var target = URLReference()
        if reference.scheme != nil {
            target = reference
            target.path = URLReference.removeDotSegments(reference.path)
        } else {
            if reference.hasAuthority {
                target.userInfo = reference.userInfo
                target.host = reference.host
                target.port = reference.port
                target.path = URLReference.removeDotSegments(reference.path)
                target.query = reference.query
            } else {
                if reference.path.isEmpty {
                    target.path = path
                    target.query = reference.query ?? query
                } else {
                    if reference.path.hasPrefix("/") {
                        target.path = URLReference.removeDotSegments(reference.path)
                    } else {
                        target.path = URLReference.removeDotSegments(merging(reference.path))
                    }
                    target.query = reference.query
                }
                target.userInfo = userInfo
                target.host = host
                target.port = port
            }
            target.scheme = scheme
        }
        target.fragment = reference.fragment
        return target
    }

    /// This base as AF uses it: a non-empty path that does not end in `/` gets one
    /// (`-[AFHTTPSessionManager initWithBaseURL:]` appends an empty path component), so that
    /// `foo` resolves below the base's last segment rather than beside it.
    package var asBaseURL: URLReference {
        var base = self
        if !base.path.isEmpty, !base.path.hasSuffix("/") { base.path += "/" }
        return base
    }

    /// RFC 3986 §5.2.3: the reference path appended to the base path up to its last `/`.
    private func merging(_ referencePath: String) -> String {
        if hasAuthority, path.isEmpty { return "/" + referencePath }
        guard let slash = path.lastIndex(of: "/") else { return referencePath }
        return path[...slash] + referencePath
    }

    /// This reference with its path's dot segments removed, as libcurl sends it (it squashes
    /// `/a/../b` to `/b` unless told CURLOPT_PATH_AS_IS, and so do curl, HTTPie and browsers),
    /// so that what afcli prints is what goes on the wire. Query and fragment are untouched.
    package func removingDotSegments() -> URLReference {
        var result = self
        result.path = URLReference.removeDotSegments(path)
        return result
    }

    /// RFC 3986 §5.2.4: removes `.` and `..` segments from a path.
    package static func removeDotSegments(_ path: String) -> String {
        // A path without a `.` or `..` segment comes out as it went in (the usual case).
        guard hasDotSegment(path.utf8) else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                // Move the first segment (with its leading `/`, if any) up to the next `/`.
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// Whether one of the `/`-separated segments of `path` (UTF-8 bytes) is `.` or `..`.
    static func hasDotSegment(_ path: some Sequence<UInt8>) -> Bool {
        // Dots since the start of the segment, or -1 once it holds anything else.
        var dots = 0
        for byte in path {
            if byte == UInt8(ascii: "/") {
                if dots == 1 || dots == 2 { return true }
                dots = 0
            } else if byte == UInt8(ascii: "."), dots >= 0 {
                dots += 1
            } else {
                dots = -1
            }
        }
        return dots == 1 || dots == 2
    }
}
