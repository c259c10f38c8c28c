import AFKit

#if canImport(Glibc)
    import Glibc
#endif

/// What `afcli run` reads: `.http` files with their environment files and variables, and the
/// command lines of `afcli run -` with the reader that splits standard input into lines.
enum BatchHarnesses {
    /// The most bytes one variable expansion may produce here (the CLI allows 16 MiB): enough to
    /// hit the limit, small enough to keep a fuzz run fast.
    private static let expansionLimit = 1 << 20
    /// Requests of one input that are expanded and built; the parser still reads them all.
    private static let maximumBuiltRequests = 16

    /// Input: a `.http` file, then optionally NUL and the public environment file, NUL and the
    /// private one, NUL and the environment's name (`dev` when none is given).
    ///
    /// What parses is checked for consistency (lines inside the file, upper-case methods, named
    /// headers), and every text of its first requests is expanded: an expansion is bounded by the
    /// limit (plus the text's own bytes), leaves text without `{{` untouched, and names the line
    /// it was asked for when it fails. Requests without `< file` parts are then built.
    static func httpFile(_ input: UnsafeRawBufferPointer) {
        let fields = input.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map { Array($0) }
        let source = fields[0]
        let lineCount = source.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let file: HTTPFile
        do {
            file = try HTTPFileParser.parse(source)
        } catch {
            FuzzInvariant.check(
                (1...lineCount).contains(error.line), "error line \(error.line) of \(lineCount): \(error.reason)")
            return
        }
        check(file, lineCount: lineCount)
        var environment: [String: String] = [:]
        if fields.count > 1 {
            let files = HTTPClientEnvironment.Files(
                publicBytes: fields[1].isEmpty ? nil : fields[1],
                privateBytes: fields.count > 2 && !fields[2].isEmpty ? fields[2] : nil)
            let name = fields.count > 3 ? String(decoding: fields[3], as: UTF8.self) : "dev"
            do {
                environment = try HTTPClientEnvironment.variables(named: name, in: files)
            } catch {
                FuzzInvariant.check(!error.description.isEmpty, "environment errors have a message")
            }
        }
        let variables = HTTPFileVariables(
            file: file.variables, environment: environment, undefinedHint: "fuzz",
            sources: HTTPFileVariables.Sources(now: { 1_700_000_000 }, random: { 0x0123_4567_89AB_CDEF }),
            maximumLength: expansionLimit)
        let builder = HTTPFileRequestBuilder(variables: variables, directory: "/nonexistent")
        for (index, request) in file.requests.prefix(maximumBuiltRequests).enumerated() {
            expand(request.url, line: request.line, with: variables)
            for header in request.headers {
                expand(header.name, line: header.line, with: variables)
                expand(header.value, line: header.line, with: variables)
            }
            var readsFiles = false
            for part in request.body {
                switch part {
                case .text(let text, let line): expand(text, line: line, with: variables)
                case .file(let path, let line), .substitutedFile(let path, _, let line):
                    expand(path, line: line, with: variables)
                    readsFiles = true
                }
            }
            // Building opens `< file` and `<@ file` parts: only requests that name none are built.
            guard !readsFiles else { continue }
            let base = index % 2 == 0 ? nil : "http://127.0.0.1:1/base/"
            do {
                _ = try builder.prepare(request, baseURL: base, environment: [:])
            } catch {
                FuzzInvariant.check(error.line >= 1 && error.line <= lineCount, "build error at line \(error.line)")
            }
        }
    }

    /// The parsed file's own consistency.
    private static func check(_ file: HTTPFile, lineCount: Int) {
        let lines = 1...lineCount
        FuzzInvariant.check(file.requests.count <= HTTPFileParser.maximumRequests, "\(file.requests.count) requests")
        for variable in file.variables {
            FuzzInvariant.check(
                HTTPFileVariables.isValidName(variable.name), "variable \(variable.name.debugDescription)")
            FuzzInvariant.check(lines.contains(variable.line), "variable line \(variable.line)")
        }
        for warning in file.warnings {
            FuzzInvariant.check(lines.contains(warning.line), "warning line \(warning.line): \(warning.message)")
        }
        for request in file.requests {
            FuzzInvariant.check(lines.contains(request.line), "request line \(request.line)")
            FuzzInvariant.check(
                !request.method.isEmpty && request.method.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A },
                "method \(request.method.debugDescription) is upper-case letters")
            FuzzInvariant.check(!request.url.isEmpty, "request at line \(request.line) has a URL")
            for header in request.headers {
                FuzzInvariant.check(!header.name.isEmpty, "header at line \(header.line) has a name")
                FuzzInvariant.check(
                    header.line > request.line && lines.contains(header.line), "header line \(header.line)")
            }
            for part in request.body {
                switch part {
                case .text(_, let line), .file(_, let line), .substitutedFile(_, _, let line):
                    FuzzInvariant.check(line > request.line && lines.contains(line), "body line \(line)")
                }
            }
        }
    }

    /// Expands one text and checks the result.
    private static func expand(_ text: String, line: Int, with variables: HTTPFileVariables) {
        do {
            let result = try variables.expand(text, line: line)
            FuzzInvariant.check(
                result.utf8.count <= expansionLimit + text.utf8.count,
                "expansion of \(result.utf8.count) bytes from \(text.utf8.count)")
            if !containsDoubleBrace(text) {
                FuzzInvariant.check(result == text, "text without {{ is untouched: \(text.debugDescription)")
            }
        } catch {
            FuzzInvariant.check(error.line == line, "expansion error at line \(error.line), not \(line)")
        }
    }

    /// Whether `text` holds `{{` as bytes (as the expansion looks for it).
    private static func containsDoubleBrace(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "{"), previous == byte { return true }
            previous = byte
        }
        return false
    }

    /// Input: one line of `afcli run -`. What splits, quoted for sh word by word and split again,
    /// gives the same words; an error's column is inside the line.
    static func commandLine(_ input: UnsafeRawBufferPointer) {
        let line = FuzzInput.text(input)
        split(line)
    }

    /// Splits one line and checks the words or the error.
    private static func split(_ line: String) {
        let words: [String]
        do {
            words = try CommandLineSplitter.split(line)
        } catch {
            let column: Int
            switch error {
            case .unterminatedQuote(_, let at), .trailingBackslash(let at): column = at
            }
            FuzzInvariant.check(
                column >= 1 && column <= line.utf8.count, "column \(column) in a line of \(line.utf8.count) bytes")
            return
        }
        // Quoted scalar by scalar, as the splitter reads bytes: a quote followed by a combining
        // mark is one Character, which a split on Characters would not see as a quote.
        let quoted = words.map { word in
            var text = "'"
            for scalar in word.unicodeScalars {
                if scalar == "'" { text += "'\\''" } else { text.unicodeScalars.append(scalar) }
            }
            return text + "'"
        }
        let again = try? CommandLineSplitter.split(quoted.joined(separator: " "))
        FuzzInvariant.check(again == words, "words \(words) survive quoting")
    }

    /// Input: what `afcli run -` reads from standard input, through a pipe; the first byte sets the
    /// longest line accepted (1 to 256 bytes, so the limit is met often). The lines returned are
    /// the input's, cut at LF without a CR before it, until the first line too long or not UTF-8,
    /// which is reported with its number. Every line is then split as a command line.
    static func lineReader(_ input: UnsafeRawBufferPointer) {
        guard let first = input.first else { return }
        // A pipe holds 64 KiB: everything is written before the reader starts.
        let data = Array(input.dropFirst().prefix(60_000))
        let limit = Int(first) + 1
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        let written = data.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        defer { close(ends[0]) }
        guard written == data.count else { return }
        var expected = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
        if expected.last?.isEmpty == true { expected.removeLast() }
        var reader = LineReader(descriptor: ends[0], maximumLineLength: limit)
        for (index, raw) in expected.enumerated() {
            let number = index + 1
            let bytes = raw.last == 0x0D ? Array(raw.dropLast()) : raw
            do {
                let line = try reader.next()
                FuzzInvariant.check(
                    bytes.count <= limit, "line \(number) of \(bytes.count) bytes over \(limit) returned")
                FuzzInvariant.check(line.map { Array($0.utf8) } == bytes, "line \(number) is returned as written")
                FuzzInvariant.check(reader.lineNumber == number, "line number \(reader.lineNumber), not \(number)")
                if let line { split(line) }
            } catch {
                if bytes.count > limit {
                    FuzzInvariant.check(
                        error == .lineTooLong(line: number, limit: limit), "line \(number): \(error), not too long")
                } else {
                    FuzzInvariant.check(
                        String(validating: bytes, as: UTF8.self) == nil && error == .notUTF8(line: number),
                        "line \(number) of \(bytes.count) bytes (limit \(limit)): \(error)")
                }
                return
            }
        }
        do {
            let extra = try reader.next()
            FuzzInvariant.check(extra == nil, "the input ends after \(expected.count) lines")
        } catch {
            FuzzInvariant.check(false, "after \(expected.count) lines: \(error)")
        }
    }
}
