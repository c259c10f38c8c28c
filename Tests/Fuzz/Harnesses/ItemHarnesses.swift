import AFCLI
import AFKit

/// Harnesses for the request-item grammar: the separator parser and the nested JSON keys.
enum ItemHarnesses {
    /// The most values one input may build into a tree; keeps a fuzz run from spending its time
    /// serializing inputs that are only large.
    private static let maximumItems = 64

    /// Parses NUL-separated arguments as request items and builds the data items into one
    /// parameter tree, then serializes it as JSON and as a form, as a request would.
    /// Items that name files are parsed but not read (a fuzzer must not open `/dev/zero`).
    static func requestItems(_ input: UnsafeRawBufferPointer) {
        var builder = ParameterTreeBuilder()
        for argument in FuzzInput.fields(input).prefix(maximumItems) {
            guard let item = RequestItem.parse(argument) else { continue }
            FuzzInvariant.check(item.original == argument, "item keeps its original text")
            let value: JSONValue
            switch item.kind {
            case .dataString: value = .string(item.value)
            case .dataJSON:
                guard let parsed = try? JSONParser.parse(item.value) else { continue }
                value = parsed
            default: continue
            }
            do {
                try builder.add(value, rawKey: item.rawKey)
            } catch {
                FuzzInvariant.check(!error.description.isEmpty, "item errors have a message")
            }
        }
        guard let tree = builder.tree else { return }
        _ = try? JSONWriter.encode(tree)
        _ = QueryStringSerializer.queryString(from: tree)
    }

    /// Parses the input as a nested key (`a[b][]`): every step starts inside the key (or just
    /// past its end, where an error pointer for an empty name points).
    static func nestedKey(_ input: UnsafeRawBufferPointer) {
        let key = FuzzInput.text(input)
        guard let path = try? NestedKeyPath.parse(key) else { return }
        let length = key.count
        for step in path.steps {
            FuzzInvariant.check(
                step.columns.lowerBound >= 0 && step.columns.lowerBound <= length,
                "step columns \(step.columns) start inside a key of \(length) characters")
        }
    }
}
