import AFKit
import Glibc

/// Receives one batch request's hops (after its `OutcomeRecorder` counted them): with
/// `--output-dir`, streams the final body into the request's file; otherwise each chunk is dropped
/// as it arrives, so a request in flight holds no more than libcurl's receive buffer.
final class BodyFileSink: HTTPClientDelegate {
    /// Where the final body goes; nil to discard it.
    private let directory: BatchOutputDirectory?
    /// The request's name, for messages.
    private let name: String
    /// The request's index, which names its file.
    private let index: Int
    /// The open body file, created with the final body's first byte, or when the final response
    /// ended without one: a request that failed before (its decryption, its connection) leaves
    /// none, and an existing file of that name is left as it was.
    private var descriptor: Int32 = -1
    /// The file's path, once created.
    private(set) var path: String?

    init(name: String, index: Int, directory: BatchOutputDirectory?) {
        self.name = name
        self.index = index
        self.directory = directory
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    func willSend(hop: Int, request: SentRequest) throws {}

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {}

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        guard isFinal else { return }
        try createFile()
        guard descriptor >= 0 else { return }
        guard FileIO.writeAll(descriptor, chunk) else {
            throw BatchFileError.cannotWrite(path: path ?? name, code: errno)
        }
    }

    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        // An empty final body (204, HEAD) is saved as an empty file.
        if isFinal { try createFile() }
    }

    /// Creates the body file with `--output-dir`, once: the final body has begun (a decrypted one
    /// arrives only after its command succeeded) or the final response ended.
    private func createFile() throws {
        guard let directory, descriptor < 0, path == nil else { return }
        let (path, descriptor) = try directory.create(index: index)
        self.path = path
        self.descriptor = descriptor
    }

    /// Closes the body file; throws when its data could not be written out.
    func finish() throws {
        guard descriptor >= 0 else { return }
        let result = close(descriptor)
        descriptor = -1
        if result != 0 { throw BatchFileError.cannotWrite(path: path ?? name, code: errno) }
    }

    func willFollowInsecureRedirect(hop: Int, to: String) {
        ErrorReporter.warn("\(name): following a redirect from https to http: \(to) is not encrypted")
    }
}

/// A body file of `--output-dir` that could not be written.
enum BatchFileError: ClassifiedError, CustomStringConvertible {
    /// Writing or closing the file failed with `errno` `code`.
    case cannotWrite(path: String, code: Int32)
    /// The directory could not be created or used.
    case badDirectory(path: String, reason: String)

    /// A directory that cannot be used is refused before anything is sent (bad input); a body
    /// that cannot be written is an I/O failure.
    var failureClass: FailureClass {
        switch self {
        case .cannotWrite: return .failure
        case .badDirectory: return .badInput
        }
    }

    var description: String {
        switch self {
        case .cannotWrite(let path, let code):
            return "cannot write \"\(path)\": \(SystemError.message(code))"
        case .badDirectory(let path, let reason):
            return "--output-dir \"\(path)\": \(reason)"
        }
    }
}
