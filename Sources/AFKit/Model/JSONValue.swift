/// A JSON value that keeps what the user typed: object member order and number literals as written.
///
/// AFNetworking serializes parameters from Foundation collections; afcli instead keeps the exact
/// text of numbers (no float round-trip, no big-integer loss) and the order members were given in,
/// so JSON bodies come out "order as typed" and query strings can sort keys the way AF does.
package indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number literal exactly as written, for example `41`, `-0.5` or `1e400`.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in insertion order. The JSON parser keeps keys unique; a data field given twice
    /// (`a=1 a=2`) appears twice, so a form can send both pairs, and `lastValueWins` gives the
    /// object JSON and property lists send.
    case object([JSONMember])
}

/// One member of a JSON object.
package struct JSONMember: Equatable, Sendable {
    package var key: String
    package var value: JSONValue

    package init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    /// The members when this is an object, else nil.
    package var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether this is an object or an array.
    package var isContainer: Bool {
        switch self {
        case .object, .array: return true
        default: return false
        }
    }
}

extension JSONValue {
    /// The value with repeated object keys collapsed, at every depth: each key keeps the position
    /// of its first occurrence and the value of its last, as HTTPie, xh and an `NSDictionary` do
    /// for `a=1 a=2` (a JSON or property-list body sends `{"a":"2"}`).
    package var lastValueWins: JSONValue {
        switch self {
        case .object(let members):
            var result: [JSONMember] = []
            var positions: [String: Int] = [:]
            for member in members {
                if let position = positions[member.key] {
                    result[position].value = member.value.lastValueWins
                } else {
                    positions[member.key] = result.count
                    result.append(JSONMember(key: member.key, value: member.value.lastValueWins))
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map(\.lastValueWins))
        default:
            return self
        }
    }
}
