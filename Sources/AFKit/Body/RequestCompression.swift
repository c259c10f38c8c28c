import AFCurl
import CDeflateShim

/// `--compress`: the request body deflated (zlib format) and sent with `Content-Encoding:
/// deflate`, as HTTPie's `-x` does.
///
/// A body built in memory (JSON, form, plist, `--raw`) is compressed in memory and used only when
/// that makes it smaller, HTTPie's rule; its `Content-Length` is the compressed size. A streamed
/// body (a file, standard input, multipart with files) is compressed on the fly as libcurl pulls
/// it, never held whole: its compressed size is unknown in advance, so it is sent chunked over
/// HTTP/1.1, and it is always compressed (whether that saves bytes is known only at its end).
package enum RequestCompression {
    /// Compresses `request`'s body in place and adds the header; leaves a request without a body,
    /// or one whose Content-Encoding the user set, unchanged.
    package static func apply(to request: inout PreparedRequest) throws(RequestCompressionError) {
        guard let body = request.body,
            !request.headers.contains(where: { ASCIICase.equal($0.name, "content-encoding") })
        else { return }
        if let bytes = request.bodyBytes {
            let deflated = try deflate(bytes)
            guard deflated.count < bytes.count else { return }
            request.body = BytesBodySource(deflated)
            request.bodyBytes = deflated
        } else {
            request.body = try DeflateBodySource(body)
        }
        request.headers.append(HTTPField(name: "Content-Encoding", value: "deflate"))
    }

    /// `bytes` in the zlib format (RFC 1950) at zlib's default level.
    package static func deflate(_ bytes: [UInt8]) throws(RequestCompressionError) -> [UInt8] {
        let source = try DeflateBodySource(BytesBodySource(bytes))
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            } catch let error as RequestCompressionError {
                throw error
            } catch {
                throw RequestCompressionError.zlibFailed
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }
}

/// A failure of zlib while compressing a request body.
package enum RequestCompressionError: ClassifiedError, CustomStringConvertible {
    /// zlib could not be loaded or could not allocate its state.
    case unavailable
    /// zlib reported an error in the middle of the stream.
    case zlibFailed

    /// zlib failing is no mistake of the user's: an ordinary failure.
    package var failureClass: FailureClass { .failure }

    package var description: String {
        switch self {
        case .unavailable: return "cannot compress the request body: zlib cannot be loaded or is out of memory"
        case .zlibFailed: return "cannot compress the request body: zlib failed"
        }
    }
}

/// A body deflated on the fly from another body source; its length is unknown (sent chunked).
final class DeflateBodySource: BodySource {
    /// The uncompressed body.
    private let source: BodySource
    /// zlib's stream state.
    private let deflater: OpaquePointer
    /// Uncompressed bytes read from `source` and not yet consumed by zlib.
    private var input = [UInt8](repeating: 0, count: 64 * 1024)
    private var inputStart = 0
    private var inputEnd = 0
    /// Whether `source` has ended, and whether zlib has written the end of the stream.
    private var sourceEnded = false
    private var finished = false

    init(_ source: BodySource) throws(RequestCompressionError) {
        guard let deflater = afz_deflater_new() else { throw RequestCompressionError.unavailable }
        self.source = source
        self.deflater = deflater
    }

    deinit {
        afz_deflater_free(deflater)
    }

    var length: UInt64? { nil }

    /// Fills `buffer` with compressed bytes, reading more of the source as zlib needs it.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        while !finished {
            if inputStart == inputEnd, !sourceEnded {
                inputEnd = try input.withUnsafeMutableBytes { try source.read(into: $0) }
                inputStart = 0
                sourceEnded = inputEnd == 0
            }
            var consumed = 0
            var produced = 0
            let result = input.withUnsafeBytes { pending in
                afz_deflate(
                    deflater, pending.baseAddress.map { $0 + inputStart }, inputEnd - inputStart, buffer.baseAddress,
                    buffer.count, sourceEnded ? 1 : 0, &consumed, &produced)
            }
            guard result >= 0 else { throw RequestCompressionError.zlibFailed }
            inputStart += consumed
            finished = result == 1
            if produced > 0 { return produced }
        }
        return 0
    }

    /// Starts the source and the compressed stream again.
    func rewind() throws {
        try source.rewind()
        guard afz_deflater_reset(deflater) == 0 else { throw RequestCompressionError.zlibFailed }
        inputStart = 0
        inputEnd = 0
        sourceEnded = false
        finished = false
    }
}
