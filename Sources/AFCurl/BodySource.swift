/// A request body that libcurl pulls chunk by chunk through its read callback.
///
/// Bodies are never held whole in memory unless they are small by nature (a JSON body from
/// items); files and standard input are read as libcurl asks for more.
package protocol BodySource: AnyObject {
    /// The exact number of bytes `read` will deliver, or nil when unknown (sent chunked).
    var length: UInt64? { get }
    /// Copies up to `buffer.count` bytes of the body into `buffer` and returns how many; 0 means the
    /// body has ended. Throws when the underlying file or stream fails.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Starts the body again from its first byte (a 307/308 redirect, an authentication retry).
    /// Throws when the source cannot be replayed (standard input already consumed).
    func rewind() throws
}
