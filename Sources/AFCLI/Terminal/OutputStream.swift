import AFKit
import Glibc

/// A buffered writer over a file descriptor: output is flushed in large chunks, and a write error
/// (a closed pipe, a full disk) is reported instead of ignored.
package final class OutputStream {
    /// Why a write failed, with the errno text.
    package struct WriteError: ClassifiedError, CustomStringConvertible {
        package var target: String
        package var code: Int32
        /// Why, when it is not the errno text.
        package var reason: String? = nil
        /// Output that cannot be written is an I/O failure (curl's 23).
        package var failureClass: FailureClass { .failure }
        package var description: String {
            "cannot write to \(target): \(reason ?? SystemError.message(code))"
        }
    }

    private let descriptor: Int32
    private let target: String
    private let closesOnDeinit: Bool
    private var buffer: [UInt8] = []
    private let capacity = 64 * 1024

    /// Wraps an open descriptor; `target` names it in errors (`standard output`, a path).
    package init(descriptor: Int32, target: String, closesOnDeinit: Bool = false) {
        self.descriptor = descriptor
        self.target = target
        self.closesOnDeinit = closesOnDeinit
        buffer.reserveCapacity(capacity)
    }

    deinit {
        try? flush()
        if closesOnDeinit { close(descriptor) }
    }

    /// Appends text as UTF-8.
    package func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Appends bytes.
    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Appends raw bytes; large chunks bypass the buffer.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > capacity {
            try flush()
            if bytes.count >= capacity {
                try writeAll(bytes)
                return
            }
        }
        buffer.append(contentsOf: bytes)
    }

    /// Writes out everything buffered.
    package func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { try writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try FileDescriptorIO.writeAll(descriptor, bytes)
        } catch {
            throw WriteError(
                target: target, code: error.code,
                reason: StandardStreams.closedReason(descriptor: descriptor, code: error.code))
        }
    }
}
