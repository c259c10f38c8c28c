import AFKit

/// Values the requests of a run take from earlier ones (`{{login.response.body.$.token}}`, REST
/// Client's request variables). While a source is checked, each reference is resolved to the
/// earlier request it names (an error when there is none) and recorded as a dependency; while the
/// run goes, its value comes from the run's `ExchangeArchive`, which the runner fills as the
/// requests others refer to succeed.
final class RequestReferences {
    /// The exchanges kept for references.
    let archive: ExchangeArchive
    /// Whether the source is being checked: references are recorded, no value is read.
    private(set) var checking = true
    /// The request being checked.
    private var current = 0
    /// The latest request of each name checked so far.
    private var earlier: [String: Int] = [:]
    /// For each request, the requests it refers to.
    private(set) var dependencies: [Int: [Int]] = [:]
    /// The requests others refer to, with the name their exchange is kept under.
    private(set) var referenced: [Int: String] = [:]
    /// Whether the last reference failed to name an earlier request.
    private(set) var unknownName = false
    /// Texts read as references before, and what they are (nil: no reference): thousands of
    /// requests may take the same value.
    private var parsed = TextMemo<RequestReference?>(limit: 1024)

    /// References that read bodies nested at most `maximumDepth` levels deep (`--max-depth`).
    init(maximumDepth: Int) {
        archive = ExchangeArchive(maximumDepth: maximumDepth)
    }

    /// Starts checking request `index`.
    func checkingRequest(_ index: Int) {
        current = index
        unknownName = false
    }

    /// Records that request `index`, just checked, is named `name`.
    func checked(_ index: Int, name: String?) {
        if let name { earlier[name] = index }
    }

    /// The requests are checked: from now on references give values.
    func startRun() {
        checking = false
    }

    /// The value of `reference`; while checking, the empty text once the earlier request it
    /// names is known (its value comes only when the run goes).
    func value(of reference: RequestReference) throws(RequestReferenceError) -> String {
        guard checking else { return try archive.value(of: reference) }
        guard let index = earlier[reference.name] else {
            unknownName = true
            throw RequestReferenceError(
                "{{\(reference.text)}}: no request named \(reference.name) comes before this one (# @name \(reference.name))")
        }
        // A few each (an array is cheaper than a set), and usually the same one again.
        if dependencies[current]?.contains(index) != true { dependencies[current, default: []].append(index) }
        referenced[index] = reference.name
        return ""
    }

    /// The value of the reference written `text` (`login.response.body.$.token`, as between the
    /// braces); nil when the text is no request reference.
    func value(ofText text: String) throws(RequestReferenceError) -> String? {
        if !checking, let known = archive.knownValue(text) { return known }
        guard let reference = reference(text) else { return nil }
        return try value(of: reference)
    }

    /// `text` read as a request reference, once.
    private func reference(_ text: String) -> RequestReference? {
        if let known = parsed.value(for: text) { return known }
        let reference = RequestReference(parsing: text)
        if text.utf8.count <= 4096 { parsed.remember(reference, for: text) }
        return reference
    }

    /// `text` with each `{{NAME.response…}}` or `{{NAME.request…}}` replaced by its value (while
    /// checking, recorded and replaced by nothing); other `{{…}}` are left as written.
    func substitute(_ text: String) throws(RequestReferenceError) -> String {
        guard text.containsVariableOpening() else { return text }
        var result = ""
        var rest = text[...]
        while let open = rest.firstRange(of: "{{") {
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else { break }
            let inner = rest[open.upperBound..<close.lowerBound].trimmingBlanks()
            result += rest[..<open.lowerBound]
            if let value = try value(ofText: inner) {
                result += value
            } else {
                result += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// Gives `entries` their dependencies and the names their exchanges are kept under.
    func annotate(_ entries: inout [PlanEntry]) {
        for (index, names) in dependencies { entries[index].dependencies = names.sorted() }
        for (index, name) in referenced { entries[index].archivedAs = name }
    }
}
