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
    /// Members in insertion order; keys are unique (a later assignment replaces the value in place).
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
