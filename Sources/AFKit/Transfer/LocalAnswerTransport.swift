import AFCurl
import Glibc

/// The `--local` transport (CJNetwork's local simulation): answers a request from a file in the
/// environment's local directory, with no network at all.
///
/// The API path names the file: one leading `/` dropped and every `/` written `:`
/// (`/api/card/list` → `api:card:list`), tried as it is and then with `.json`. The file streams
/// to the delegate as a `200 OK` with a `Content-Type` from its extension, or sniffed from its
/// first bytes (JSON, else UTF-8 text, else octet-stream). A missing file answers CJNetwork's
/// JSON message (the path without its leading `/`) and reports the miss to `missingFile`.
///
/// The file is opened below a descriptor of the directory with `O_NOFOLLOW`, and names that are
/// `.`, `..` or hold `..` as a path segment are refused, so no request reads outside the directory
/// (the name holds no `/`, so it cannot leave it otherwise). Unlike CJNetwork, nothing waits 0.5 s.
package final class LocalAnswerTransport: RequestTransport {
    /// The directory answers are read from.
    package let directory: String
    /// The API path the request was made from (`api/card/list`).
    package let apiPath: String
    /// Told the path whose file is missing, before the stand-in answer is delivered.
    package let missingFile: (String) -> Void

    /// Bytes read and delivered at a time.
    private static let chunkSize = 65536

    package init(directory: String, apiPath: String, missingFile: @escaping (String) -> Void) {
        self.directory = directory
        self.apiPath = apiPath
        self.missingFile = missingFile
    }

    /// The file names tried for `apiPath`, in order; throws for a path that could leave the directory.
    package static func candidateNames(for apiPath: String) throws(LocalAnswerError) -> [String] {
        let trimmed = apiPath.hasPrefix("/") ? String(apiPath.dropFirst()) : apiPath
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { $0 == ".." || $0 == "." }) || trimmed.isEmpty {
            throw .refusedPath(apiPath)
        }
        guard !trimmed.utf8.contains(0) else { throw .refusedPath(apiPath) }
        let name = segments.joined(separator: ":")
        return [name, name + ".json"]
    }

    /// The first name tried for `apiPath` (`api:card:list`), for messages.
    package static func fileName(for apiPath: String) -> String {
        let trimmed = apiPath.hasPrefix("/") ? String(apiPath.dropFirst()) : apiPath
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).joined(separator: ":")
    }

    /// CJNetwork's answer for a path without a file (spec/CJNETWORK.md §6).
    package static func missingAnswer(for apiPath: String) -> [UInt8] {
        let trimmed = apiPath.hasPrefix("/") ? String(apiPath.dropFirst()) : apiPath
        let message = "本地请求模拟：却未实现模拟的请求文件" + trimmed
        let document = JSONValue.object([
            JSONMember(key: "status", value: .string("0")),
            JSONMember(key: "message", value: .string(message)),
            JSONMember(key: "result", value: .string("")),
        ])
        return (try? JSONWriter.encode(document)) ?? []
    }

    package func send(_ request: PreparedRequest, delegate: HTTPClientDelegate) throws -> HTTPClientResult {
        let started = FileIO.monotonicSeconds()
        let names = try Self.candidateNames(for: apiPath)
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw LocalAnswerError.directory(directory, SystemError.current) }
        defer { close(directoryDescriptor) }
        var found: (descriptor: Int32, name: String, size: Int64)?
        for name in names {
            let descriptor = openat(directoryDescriptor, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            if descriptor < 0 {
                if errno == ENOENT { continue }
                if errno == ELOOP { throw LocalAnswerError.link(FileIO.join(directory, name)) }
                throw LocalAnswerError.unreadable(FileIO.join(directory, name), SystemError.current)
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                throw LocalAnswerError.notRegular(FileIO.join(directory, name))
            }
            found = (descriptor, name, Int64(info.st_size))
            break
        }
        try delegate.willSend(
            hop: 0,
            request: SentRequest(
                method: request.method, url: request.url, headers: request.headers,
                rawHead: Self.requestHead(request)))
        guard let found else {
            missingFile(apiPath)
            let body = Self.missingAnswer(for: apiPath)
            return try answer(
                body: .bytes(body), contentType: MediaType.json, request: request, delegate: delegate, started: started)
        }
        defer { close(found.descriptor) }
        let sniffed = try Self.contentType(name: found.name, descriptor: found.descriptor)
        return try answer(
            body: .file(found.descriptor, size: found.size), contentType: sniffed, request: request, delegate: delegate,
            started: started)
    }

    /// The head the request would have had on the wire (HTTP/1.1, `Host` first), so that `-v`
    /// shows what was asked although nothing is sent; body framing headers are left out.
    static func requestHead(_ request: PreparedRequest) -> String {
        let url = URLReference(parsing: request.url)
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        var head = "\(request.method) \(target) HTTP/1.1\r\n"
        if let host = url.host { head += "Host: " + host + (url.port.map { ":" + $0 } ?? "") + "\r\n" }
        for field in request.headers { head += "\(field.name): \(field.value)\r\n" }
        return head + "\r\n"
    }

    /// Where the answer's body comes from.
    private enum AnswerBody {
        case bytes([UInt8])
        case file(Int32, size: Int64)
    }

    /// Delivers a 200 answer with `body` to the delegate and returns the result.
    private func answer(
        body: AnswerBody, contentType: String, request: PreparedRequest, delegate: HTTPClientDelegate, started: Double
    ) throws -> HTTPClientResult {
        let length: Int64
        switch body {
        case .bytes(let bytes): length = Int64(bytes.count)
        case .file(_, let size): length = size
        }
        let head = ResponseHead(
            statusCode: 200, reasonPhrase: "OK", httpVersion: "HTTP/1.1",
            headers: [("Content-Type", contentType), ("Content-Length", String(length))])
        try delegate.didReceive(hop: 0, head: head, isFinal: true)
        var delivered: Int64 = 0
        switch body {
        case .bytes(let bytes):
            if !bytes.isEmpty, delegate.needsMoreFinalBody() {
                try bytes.withUnsafeBytes { try delegate.didReceiveBody(hop: 0, chunk: $0, isFinal: true) }
                delivered = Int64(bytes.count)
            }
        case .file(let descriptor, _):
            var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
            while delegate.needsMoreFinalBody() {
                if let signal = Interruption.signal { throw CurlError.interrupted(signal: signal) }
                if delegate.shouldAbort() { throw CurlError.interrupted(signal: SIGINT) }
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw LocalAnswerError.unreadable(directory, SystemError.current)
                }
                if count == 0 { break }
                try chunk.withUnsafeBytes {
                    try delegate.didReceiveBody(
                        hop: 0, chunk: UnsafeRawBufferPointer(rebasing: $0[0..<count]), isFinal: true)
                }
                delivered += Int64(count)
            }
        }
        try delegate.didFinishResponse(hop: 0, isFinal: true)
        let elapsed = FileIO.monotonicSeconds() - started
        var metrics = TransferMetrics()
        metrics.total = elapsed
        metrics.bodyBytesReceived = delivered
        let outcome = TransferOutcome(
            statusCode: 200, effectiveURL: request.url, httpVersion: "HTTP/1.1", bytesDownloaded: delivered,
            totalTime: elapsed, head: head, metrics: metrics)
        return HTTPClientResult(
            head: head, outcome: outcome, url: request.url, method: request.method, redirectCount: 0,
            totalTime: elapsed)
    }

    /// The type of the answer file: from its extension when known, else from its first bytes
    /// (`{` or `[` → JSON, valid UTF-8 → text, else octet-stream). Rewinds the file.
    static func contentType(name: String, descriptor: Int32) throws(LocalAnswerError) -> String {
        let byExtension = MIMETypeTable.shared.type(forPath: name)
        if byExtension != "application/octet-stream" { return byExtension }
        var head = [UInt8](repeating: 0, count: 512)
        let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw .unreadable(name, SystemError.current) }
        let bytes = head.prefix(count)
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return MediaType.json }
        if bytes.contains(0) { return "application/octet-stream" }
        // A full sample may end inside a character: then up to three bytes may be cut.
        let cuts = count == head.count ? 3 : 0
        let isText = (0...cuts).contains { String(validating: bytes.dropLast($0), as: UTF8.self) != nil }
        return isText ? "text/plain; charset=utf-8" : "application/octet-stream"
    }
}

/// Why a local answer cannot be read; reported with exit status 2.
package enum LocalAnswerError: ClassifiedError, Equatable, CustomStringConvertible {
    /// A path that could name a file outside the directory (`..`, `.`, empty, NUL).
    case refusedPath(String)
    /// The local directory cannot be opened.
    case directory(String, SystemError)
    /// The answer file is a symbolic link.
    case link(String)
    /// The answer file is not a regular file.
    case notRegular(String)
    /// The answer file cannot be read.
    case unreadable(String, SystemError)

    /// A local answer that cannot be read is bad input (`--local` sends nothing).
    package var failureClass: FailureClass { .badInput }

    package var description: String {
        switch self {
        case .refusedPath(let path):
            return "--local refuses the path \(path): a local answer is named after a path without . or .. segments"
        case .directory(let path, let error):
            return "cannot open the local directory \(path): \(error)"
        case .link(let path):
            return "the local answer \(path) is a symbolic link, which --local does not follow"
        case .notRegular(let path):
            return "the local answer \(path) is not a regular file"
        case .unreadable(let path, let error):
            return "cannot read the local answer \(path): \(error)"
        }
    }
}
