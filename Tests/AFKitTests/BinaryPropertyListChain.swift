/// Binary property lists nested as deep as a test needs.
enum BinaryPropertyListChain {
    /// A binary property list of one chain of arrays `levels` deep (object i is [i+1]).
    static func bytes(_ levels: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for index in 0..<levels {
            offsets.append(bytes.count)
            bytes += [0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)]
        }
        offsets.append(bytes.count)
        bytes += [0x09]
        let table = bytes.count
        func big(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        for offset in offsets { bytes += [UInt8(offset >> 16), UInt8((offset >> 8) & 0xFF), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 3, 2] + big(levels + 1) + big(0) + big(table)
        return bytes
    }
}
