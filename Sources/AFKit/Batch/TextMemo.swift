/// Values remembered by the text they were worked out from (a `??` line, a `{{…}}` reference),
/// for runs that meet the same few texts in request after request. The first few are compared
/// with the text before the dictionary is asked: comparing two texts costs less than hashing one.
package struct TextMemo<Value> {
    /// How many texts are compared one by one before the dictionary.
    private static var compared: Int { 8 }

    private var first: [(text: String, value: Value)] = []
    private var rest: [String: Value] = [:]
    /// The most texts remembered; later ones are worked out each time.
    private let limit: Int

    package init(limit: Int) {
        self.limit = limit
    }

    /// The value remembered for `text`, if any.
    package func value(for text: String) -> Value? {
        for entry in first where entry.text == text { return entry.value }
        return rest.isEmpty ? nil : rest[text]
    }

    /// Remembers `value` for `text`, which has none yet, while there is room.
    package mutating func remember(_ value: Value, for text: String) {
        guard first.count + rest.count < limit else { return }
        if first.count < Self.compared {
            first.append((text, value))
        } else {
            rest[text] = value
        }
    }

    /// Forgets every value.
    package mutating func removeAll() {
        first = []
        rest = [:]
    }
}
