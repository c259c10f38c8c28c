import AFKit
import Glibc

/// Turns request items into the parts of a `RequestSpec`, reading the files they name.
struct ItemResolver {
    var headers: [HeaderItem] = []
    var queryItems: [QueryItem] = []
    var parameters = ParameterTreeBuilder()
    var files: [FileItem] = []
    /// `@path` with no field name: the raw body file, and the item that named it.
    var bodyFile: (path: String, contentType: String?, item: String)?
    var hasData = false

    /// Adds one argument; throws for anything that is not a valid item.
    mutating func add(_ argument: String) throws(ItemError) {
        guard let item = RequestItem.parse(argument) else { throw .noSeparator(argument: argument) }
        switch item.kind {
        case .header:
            try Self.checkHeaderName(item)
            headers.append(
                HeaderItem(name: item.key, value: item.value.isEmpty ? nil : try Self.headerValue(item.value, item)))
        case .emptyHeader:
            try Self.checkHeaderName(item)
            guard item.value.isEmpty else { throw .emptyHeaderWithValue(item: argument) }
            headers.append(HeaderItem(name: item.key, value: ""))
        case .headerFromFile:
            try Self.checkHeaderName(item)
            var text = try Self.text(of: item)
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            headers.append(HeaderItem(name: item.key, value: try Self.headerValue(text, item)))
        case .query:
            queryItems.append(QueryItem(name: item.key, value: item.value))
        case .queryFromFile:
            queryItems.append(QueryItem(name: item.key, value: try Self.text(of: item)))
        case .dataString:
            try addData(.string(item.value), item)
        case .dataStringFromFile:
            try addData(.string(try Self.text(of: item)), item)
        case .dataJSON:
            try addData(try Self.json(item.value, item: item, valueColumn: Self.valueColumn(of: item)), item)
        case .dataJSONFromFile:
            let text = try Self.text(of: item)
            let value: JSONValue
            do {
                value = try JSONParser.parse(text)
            } catch {
                throw .invalidJSON(item: argument, column: 0, reason: "\(item.value): \(error.description)")
            }
            try addData(value, item)
        case .file:
            let parsed = try Self.fileItem(item)
            if item.key.isEmpty {
                guard bodyFile == nil else { throw .conflictingBodies("only one @FILE request body can be given") }
                if let failure = FileReader.checkReadable(parsed.path), parsed.path != "-" {
                    if failure.errno == EINTR { throw .interrupted }
                    throw .unreadableFile(item: argument, path: parsed.path, reason: failure.reason)
                }
                bodyFile = (parsed.path, parsed.contentType, argument)
            } else {
                if parsed.path != "-", let failure = FileReader.checkReadable(parsed.path) {
                    if failure.errno == EINTR { throw .interrupted }
                    throw .unreadableFile(item: argument, path: parsed.path, reason: failure.reason)
                }
                files.append(parsed)
            }
        }
    }

    private mutating func addData(_ value: JSONValue, _ item: RequestItem) throws(ItemError) {
        hasData = true
        try parameters.add(value, rawKey: item.rawKey)
    }

    /// Where the value starts within the argument, for caret lines.
    private static func valueColumn(of item: RequestItem) -> Int {
        item.original.count - item.value.count
    }

    private static func json(_ text: String, item: RequestItem, valueColumn: Int) throws(ItemError) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw .invalidJSON(
                item: item.original, column: valueColumn + error.characterOffset(in: text), reason: error.reason)
        }
    }

    /// The text of the file an item names; bytes that are not UTF-8 are refused rather than
    /// replaced with U+FFFD, as HTTPie and xh do.
    private static func text(of item: RequestItem) throws(ItemError) -> String {
        switch FileReader.read(item.value) {
        case .success(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw .notText(item: item.original, path: item.value)
            }
            return text
        case .failure(let failure):
            if failure.errno == EINTR { throw .interrupted }
            throw .unreadableFile(item: item.original, path: item.value, reason: failure.reason)
        }
    }

    /// RFC 9110 token characters, which a header name must consist of.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Checks the syntax of `argument` as `add` would, without reading any file it names: its
    /// separator, a header's name and value, a file item's options. Returns the path a file item
    /// names (`-` for standard input), else nil.
    static func checkSyntax(_ argument: String) throws(ItemError) -> String? {
        guard let item = RequestItem.parse(argument) else { throw .noSeparator(argument: argument) }
        switch item.kind {
        case .header:
            try checkHeaderName(item)
            if !item.value.isEmpty { _ = try headerValue(item.value, item) }
        case .emptyHeader, .headerFromFile:
            try checkHeaderName(item)
        case .file:
            return try fileItem(item).path
        default:
            break
        }
        return nil
    }

    private static func checkHeaderName(_ item: RequestItem) throws(ItemError) {
        guard !item.key.isEmpty else { throw .invalidHeader(item: item.original, reason: "the name is empty") }
        guard item.key.utf8.allSatisfy(isTokenCharacter) else {
            throw .invalidHeader(item: item.original, reason: "\"\(item.key)\" is not a valid header name")
        }
    }

    private static func headerValue(_ value: String, _ item: RequestItem) throws(ItemError) -> String {
        if let problem = RequestSerializer.headerValueProblem(value) {
            throw .invalidHeader(item: item.original, reason: problem)
        }
        return value
    }

    /// Splits `path;type=T;filename=N` (HTTPie's file-item options).
    private static func fileItem(_ item: RequestItem) throws(ItemError) -> FileItem {
        let text = item.value
        let starts = optionStarts(in: text)
        var contentType: String?
        var filename: String?
        // The last option of a kind wins, as if they were taken off the end one by one.
        for (position, start) in starts.enumerated().reversed() {
            let end = position + 1 < starts.count ? starts[position + 1] : text.endIndex
            let option = text[text.index(after: start)..<end]
            if option.hasPrefix("type=") {
                let value = String(option.dropFirst(5))
                guard isMediaType(value) else {
                    throw .invalidFileOption(
                        item: item.original, reason: "\"\(value)\" is not a media type (type/subtype)")
                }
                contentType = contentType ?? value
            } else {
                filename = filename ?? String(option.dropFirst(9))
            }
        }
        let path = String(text[..<(starts.first ?? text.endIndex)])
        guard !path.isEmpty else { throw .invalidFileOption(item: item.original, reason: "no file path") }
        return FileItem(field: item.key, path: path, contentType: contentType, filename: filename)
    }

    /// Where each `;type=` and `;filename=` starts, in one pass over the UTF-8 bytes (a long run
    /// of options costs linear time; a path without `;`, the usual case, one scan for the byte).
    private static func optionStarts(in text: String) -> [String.Index] {
        var starts: [String.Index] = []
        let bytes = text.utf8
        var index = bytes.startIndex
        while let semicolon = bytes[index...].firstIndex(of: UInt8(ascii: ";")) {
            let rest = bytes[semicolon...]
            if rest.starts(with: ";type=".utf8) {
                starts.append(semicolon)
                index = bytes.index(semicolon, offsetBy: 6)
            } else if rest.starts(with: ";filename=".utf8) {
                starts.append(semicolon)
                index = bytes.index(semicolon, offsetBy: 10)
            } else {
                index = bytes.index(after: semicolon)
            }
        }
        return starts
    }

    private static func isMediaType(_ value: String) -> Bool {
        let main = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let parts = main.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isTokenCharacter) }
    }
}
