/// A stack of bytes in raw memory (one per open element or container), grown by doubling.
struct ByteStack {
    private var base = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
    private var capacity = 64
    private(set) var count = 0

    /// The innermost entry; the stack must not be empty.
    var top: UInt8 {
        get { base[count - 1] }
        set { base[count - 1] = newValue }
    }

    mutating func push(_ value: UInt8) {
        if count == capacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        base[count] = value
        count += 1
    }

    mutating func pop() -> UInt8 {
        count -= 1
        return base[count]
    }

    func deallocate() {
        base.deallocate()
    }
}
