/// The envelope stage of the request pipeline (DESIGN §3): reads a response body as CJNetwork's
/// `{status, message, result}` envelope (key names and status lists from an `EnvelopeSpec`) and
/// says what it means: success with the exact JSON text of the result, a failure with its
/// message, or a common failure ("logged in elsewhere").
///
/// The stage must see the whole body, so it is bounded: a body over `maximumBodyBytes` is an
/// error, not a larger buffer.
package enum ResponseEnvelope {
    /// The largest body read as an envelope (64 MiB).
    package static let maximumBodyBytes = 64 << 20
    /// The success statuses used when neither the environment nor `--envelope-success` names any:
    /// the common conventions `0`, `200`, `ok`, `success` and `true` (compared as text, so a JSON
    /// `0` and `"0"` are the same status).
    package static let defaultSuccess = ["0", "200", "ok", "success", "true"]

    /// What an envelope says.
    package enum Outcome: Equatable, Sendable {
        /// A success status: the result member's JSON text exactly as received (`null` when the
        /// envelope has no result member).
        case success(result: [UInt8])
        /// Another status: its text and the message (or a description when there is none).
        case failure(status: String, message: String)
        /// A status of the spec's `commonFailure` list.
        case commonFailure(status: String, message: String)
    }

    /// Reads `body` as the envelope `spec` describes; empty success lists mean `defaultSuccess`.
    package static func evaluate(_ body: [UInt8], spec: EnvelopeSpec) throws(EnvelopeError) -> Outcome {
        guard body.count <= maximumBodyBytes else { throw .tooLarge(limit: maximumBodyBytes) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: body, replacingLoneSurrogates: true)
        } catch {
            throw .notJSON(reason: error.description)
        }
        guard case .object(let members) = value else { throw .notAnObject }
        guard let status = members.last(where: { $0.key == spec.statusKey })?.value else {
            throw .missingStatus(key: spec.statusKey)
        }
        let statusText = text(of: status)
        let success = spec.success.isEmpty ? defaultSuccess : spec.success
        if matches(status, statusText, success) {
            let result = members.contains { $0.key == spec.resultKey } ? memberText(body, key: spec.resultKey) : nil
            return .success(result: result ?? Array("null".utf8))
        }
        let message =
            members.last(where: { $0.key == spec.messageKey }).map { text(of: $0.value) }
            ?? "the server answered status \(statusText) without a \(spec.messageKey)"
        if matches(status, statusText, spec.commonFailure) {
            return .commonFailure(status: statusText, message: message)
        }
        return .failure(status: statusText, message: message)
    }

    /// Whether a status is one of `list`: a string status compared without regard to case (`"OK"`
    /// is `ok`), any other as its exact text (`0`, `true`).
    static func matches(_ status: JSONValue, _ text: String, _ list: [String]) -> Bool {
        guard case .string = status else { return list.contains(text) }
        let lower = text.lowercased()
        return list.contains { $0.lowercased() == lower }
    }

    /// A status or message as text: a string's characters, a number's literal, `true`, `false`,
    /// `null`, and compact JSON for an array or object.
    static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .number(let literal): return literal
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array, .object: return (try? JSONWriter.encodeToString(value)) ?? ""
        }
    }

    /// The exact bytes of the value of the top-level member `key` (the last one when the key is
    /// repeated, as the parser keeps it) in a body that is already known to be a JSON object.
    static func memberText(_ body: [UInt8], key: String) -> [UInt8]? {
        var scanner = JSONSpanScanner(bytes: body)
        var found: Range<Int>?
        // The parser accepts a leading byte order mark; the scanner must step over it too.
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        while true {
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: "}")) { break }
            _ = scanner.take(UInt8(ascii: ","))
            scanner.skipSpace()
            let keyStart = scanner.position
            scanner.skipValue()
            let name = try? JSONParser.parse(
                bytes: Array(body[keyStart..<scanner.position]), replacingLoneSurrogates: true)
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipSpace()
            let valueStart = scanner.position
            scanner.skipValue()
            if name == .string(key) { found = valueStart..<scanner.position }
            guard scanner.position < body.count else { return nil }
        }
        return found.map { Array(body[$0]) }
    }
}

/// Walks over the values of a JSON text that the parser has already accepted, to find where each
/// one starts and ends (the parser keeps values, not their positions).
struct JSONSpanScanner {
    let bytes: [UInt8]
    var position = 0

    mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    /// Consumes `byte` if it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Moves past one value: a string, a container (nesting counted, strings skipped), or a
    /// literal up to the next delimiter.
    mutating func skipValue() {
        guard position < bytes.count else { return }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    skipString()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                position += 1
            } while depth > 0 && position < bytes.count
        default:
            while position < bytes.count, !",}] \t\r\n".utf8.contains(bytes[position]) { position += 1 }
        }
    }

    /// Moves past a string, its quotes and escapes included.
    mutating func skipString() {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""):
                position += 1
                return
            default: position += 1
            }
        }
    }
}

/// A body that `--envelope` cannot read as an envelope.
package enum EnvelopeError: ClassifiedError, Equatable, CustomStringConvertible {
    /// The body is larger than the envelope stage reads.
    case tooLarge(limit: Int)
    /// The body is not JSON.
    case notJSON(reason: String)
    /// The body is JSON but not an object.
    case notAnObject
    /// The object has no status member.
    case missingStatus(key: String)

    /// A body too large to read is over a limit; any other is not an envelope (a rejected response).
    package var failureClass: FailureClass {
        switch self {
        case .tooLarge: return .limitExceeded
        case .notJSON, .notAnObject, .missingStatus: return .responseRejected
        }
    }

    package var description: String {
        switch self {
        case .tooLarge(let limit):
            return "the response body is larger than the \(limit >> 20) MiB --envelope reads"
        case .notJSON(let reason):
            return "the response body is not an envelope: not JSON (\(reason))"
        case .notAnObject:
            return "the response body is not an envelope: not a JSON object"
        case .missingStatus(let key):
            return "the response body is not an envelope: it has no \"\(key)\" member"
        }
    }
}
