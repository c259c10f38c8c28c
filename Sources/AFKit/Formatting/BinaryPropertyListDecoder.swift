import AFCurl

/// Decodes Apple's binary property list format (`bplist00`) without Foundation, whose
/// `PropertyListSerialization` would load ICU on every run.
///
/// Layout (CFBinaryPList.c): the magic, the objects, an offset table, and a 32-byte trailer
/// giving the offset and reference sizes, the object count, the top object and the table's
/// offset, all big-endian. Every offset and reference is bounds-checked; a reference cycle,
/// nesting deeper than the caller's `maximumDepth` and an expansion past
/// `FormattingLimits.propertyListBudget` (objects that share their children expand
/// exponentially: object i = [i+1, i+1]) are errors, not a crash or a flood.
package enum BinaryPropertyListDecoder {

    /// Whether `bytes` start like a binary property list.
    package static func isBinaryPropertyList(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: Array("bplist00".utf8))
    }

    /// The value of the binary property list in `bytes`.
    package static func decode(
        _ bytes: [UInt8], budget: PropertyListBudget? = nil, maximumDepth: Int = FormattingLimits.maximumDepth
    ) throws(PropertyListError) -> PropertyListValue {
        guard isBinaryPropertyList(bytes), bytes.count >= 8 + 32 else {
            throw PropertyListError("not a binary property list")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = readInteger(bytes, at: trailer + 8, size: 8)
        let top = readInteger(bytes, at: trailer + 16, size: 8)
        let tableOffset = readInteger(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, top < count,
            tableOffset >= 8, tableOffset < UInt64(trailer),
            count <= UInt64(trailer) / UInt64(offsetSize),
            tableOffset + count * UInt64(offsetSize) <= UInt64(trailer)
        else { throw PropertyListError("damaged binary property list trailer") }
        let allowance = budget ?? FormattingLimits.propertyListBudget(forBodyOf: bytes.count)
        var reader = Reader(
            bytes: bytes, offsetSize: offsetSize, referenceSize: referenceSize, count: Int(count),
            tableOffset: Int(tableOffset), objectsEnd: Int(tableOffset),
            allowance: allowance, budget: allowance, maximumDepth: maximumDepth)
        return try reader.object(Int(top), depth: 0)
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`.
    static func readInteger(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// Walks objects by reference.
    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let count: Int
        let tableOffset: Int
        let objectsEnd: Int
        /// What decoding may produce.
        let allowance: PropertyListBudget
        /// What is left of `allowance`.
        var budget: PropertyListBudget
        /// The deepest nesting of containers decoded.
        let maximumDepth: Int
        /// Objects decoded, for checking SIGINT/SIGTERM now and then.
        var steps = 0
        /// Objects being decoded (a container that contains itself is a cycle).
        var path: Set<Int> = []

        /// Counts `objects` decoded objects and `bytes` of text or data against the budget, and every
        /// 4096 objects checks for an interrupt.
        mutating func spend(bytes: Int = 0, objects: Int = 1) throws(PropertyListError) {
            budget.objects -= objects
            budget.bytes -= bytes
            guard budget.objects >= 0, budget.bytes >= 0 else {
                let what =
                    budget.objects < 0
                    ? "more than \(allowance.objects) objects"
                    : "more than \(allowance.bytes >> 20) MiB of text and data"
                throw PropertyListError("it decodes to \(what) (objects shared by reference)")
            }
            steps &+= 1
            if steps & 0xFFF == 0, Interruption.isInterrupted { throw PropertyListError("interrupted") }
        }

        /// Where an object starts, from the offset table.
        func offset(of object: Int) throws(PropertyListError) -> Int {
            guard object >= 0, object < count else { throw PropertyListError("object reference out of range") }
            let offset = Int(clamping: readInteger(bytes, at: tableOffset + object * offsetSize, size: offsetSize))
            guard offset >= 8, offset < objectsEnd else { throw PropertyListError("object offset out of range") }
            return offset
        }

        /// Checks that `length` bytes from `start` lie among the objects.
        func need(_ start: Int, _ length: Int) throws(PropertyListError) {
            guard length >= 0, start <= objectsEnd, length <= objectsEnd - start else {
                throw PropertyListError("object runs past the end of the data")
            }
        }

        /// The length in a marker's low nibble, or in the integer object that follows when it is 0xF;
        /// returns the length and where the payload starts.
        func length(marker: UInt8, at offset: Int) throws(PropertyListError) -> (Int, Int) {
            let nibble = Int(marker & 0x0F)
            guard nibble == 0x0F else { return (nibble, offset + 1) }
            try need(offset + 1, 1)
            let intMarker = bytes[offset + 1]
            guard intMarker & 0xF0 == 0x10 else { throw PropertyListError("bad length marker") }
            let size = 1 << Int(intMarker & 0x0F)
            guard size <= 8 else { throw PropertyListError("length too large") }
            try need(offset + 2, size)
            let value = readInteger(bytes, at: offset + 2, size: size)
            guard value < UInt64(objectsEnd) else { throw PropertyListError("length too large") }
            return (Int(value), offset + 2 + size)
        }

        /// Decodes the object `reference`, following its references.
        mutating func object(_ reference: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
            try spend()
            let start = try offset(of: reference)
            let marker = bytes[start]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .boolean(false)
                case 0x09: return .boolean(true)
                default: throw PropertyListError("unsupported object (marker 0x\(String(marker, radix: 16)))")
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                try need(start + 1, size)
                if size == 16 {
                    // 128-bit integers hold values above Int64.max in their low 8 bytes.
                    return .integer(String(readInteger(bytes, at: start + 9, size: 8)))
                }
                guard size <= 8 else { throw PropertyListError("bad integer size") }
                let raw = readInteger(bytes, at: start + 1, size: size)
                // Only 8-byte integers are signed; shorter ones are unsigned.
                return .integer(size == 8 ? String(Int64(bitPattern: raw)) : String(raw))
            case 0x2:
                let size = 1 << Int(marker & 0x0F)
                try need(start + 1, size)
                if size == 4 {
                    return .real(
                        Self.text(Double(Float(bitPattern: UInt32(readInteger(bytes, at: start + 1, size: 4))))))
                }
                guard size == 8 else { throw PropertyListError("bad real size") }
                return .real(Self.text(Double(bitPattern: readInteger(bytes, at: start + 1, size: 8))))
            case 0x3:
                guard marker == 0x33 else { throw PropertyListError("bad date marker") }
                try need(start + 1, 8)
                return .date(
                    ISO8601Date.text(referenceSeconds: Double(bitPattern: readInteger(bytes, at: start + 1, size: 8))))
            case 0x4:
                let (length, payload) = try length(marker: marker, at: start)
                try need(payload, length)
                try spend(bytes: length, objects: 0)
                return .data(Array(bytes[payload..<(payload + length)]))
            case 0x5:
                let (length, payload) = try length(marker: marker, at: start)
                try need(payload, length)
                try spend(bytes: length, objects: 0)
                return .string(String(decoding: bytes[payload..<(payload + length)], as: UTF8.self))
            case 0x6:
                let (length, payload) = try length(marker: marker, at: start)
                guard length <= Int.max / 2 else { throw PropertyListError("string too long") }
                try need(payload, length * 2)
                try spend(bytes: length * 2, objects: 0)
                var units: [UInt16] = []
                units.reserveCapacity(length)
                for index in 0..<length {
                    units.append(UInt16(bytes[payload + 2 * index]) << 8 | UInt16(bytes[payload + 2 * index + 1]))
                }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let size = Int(marker & 0x0F) + 1
                try need(start + 1, size)
                return .uid(readInteger(bytes, at: start + 1, size: size))
            case 0xA, 0xC:
                let (length, payload) = try length(marker: marker, at: start)
                guard length <= (objectsEnd - payload) / referenceSize else {
                    throw PropertyListError("object runs past the end of the data")
                }
                try enter(reference, depth: depth)
                var elements: [PropertyListValue] = []
                for index in 0..<length {
                    let child = Int(clamping: readInteger(bytes, at: payload + index * referenceSize, size: referenceSize))
                    elements.append(try object(child, depth: depth + 1))
                }
                path.remove(reference)
                return .array(elements)
            case 0xD:
                let (length, payload) = try length(marker: marker, at: start)
                guard length <= (objectsEnd - payload) / referenceSize / 2 else {
                    throw PropertyListError("object runs past the end of the data")
                }
                try enter(reference, depth: depth)
                var members: [(key: String, value: PropertyListValue)] = []
                for index in 0..<length {
                    let keyReference = Int(clamping: readInteger(bytes, at: payload + index * referenceSize, size: referenceSize))
                    let valueReference = Int(
                        clamping: readInteger(bytes, at: payload + (length + index) * referenceSize, size: referenceSize))
                    guard case .string(let key) = try object(keyReference, depth: depth + 1) else {
                        throw PropertyListError("dictionary key is not a string")
                    }
                    members.append((key, try object(valueReference, depth: depth + 1)))
                }
                path.remove(reference)
                return .dictionary(members)
            default:
                throw PropertyListError("unsupported object (marker 0x\(String(marker, radix: 16)))")
            }
        }

        /// Marks a container at `depth` as being decoded; entering it again is a cycle.
        mutating func enter(_ reference: Int, depth: Int) throws(PropertyListError) {
            guard depth < maximumDepth else { throw PropertyListError(FormattingLimits.tooDeep(maximumDepth)) }
            guard path.insert(reference).inserted else { throw PropertyListError("reference cycle") }
        }

        /// A real as Apple's XML writes it: shortest round-trip digits, `nan`, `+infinity`, `-infinity`.
        static func text(_ value: Double) -> String {
            if value.isNaN { return "nan" }
            if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        }
    }
}
