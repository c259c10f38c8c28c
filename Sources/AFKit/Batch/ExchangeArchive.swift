import AFCurl

/// The exchanges of a run that later requests take values from (`{{login.response.body.$.token}}`):
/// for each named request another refers to, its request's head and body (when it was in memory)
/// and its response's head and body (up to `bodyLimit`), kept once a response came, whatever its
/// status (a login's 401 body may carry the reason a later request wants).
///
/// Written and read on the run's own thread: a request that refers to another is prepared only
/// when that one has ended.
package final class ExchangeArchive {
    /// The most of a response body kept for references: what assertions read (16 MiB).
    package static let bodyLimit = ResponseCheck.bodyLimit

    /// One request's exchange, as kept.
    package struct Record {
        package var requestHeaders: [(name: String, value: String)]
        /// The request body when it was built in memory; nil when it was streamed (a file).
        package var requestBody: [UInt8]?
        package var responseHead: ResponseHead
        package var responseBody: [UInt8]
        /// Whether `responseBody` is only the start of the body.
        package var responseTruncated: Bool

        package init(
            requestHeaders: [(name: String, value: String)], requestBody: [UInt8]?, responseHead: ResponseHead,
            responseBody: [UInt8], responseTruncated: Bool
        ) {
            self.requestHeaders = requestHeaders
            self.requestBody = requestBody
            self.responseHead = responseHead
            self.responseBody = responseBody
            self.responseTruncated = responseTruncated
        }
    }

    private var records: [String: Record] = [:]
    /// The values already given, by reference text: thousands of requests may take the same
    /// value. Forgotten whenever a record is kept (it may replace one they came from).
    /// At most 1,024 of them, each at most `givenLengthLimit` bytes.
    private var given = TextMemo<String>(limit: 1024)
    private static let givenLengthLimit = 4096
    /// Parsed JSONPath queries by their text: thousands of requests may take the same value.
    private var queries: [String: JSONPathQuery] = [:]
    /// Guards both: requests are prepared on the run's thread, or on its worker once no record
    /// is written any more.
    private let monitor = Monitor()
    /// The deepest nesting a body is read to for a value (`--max-depth`).
    private let maximumDepth: Int

    package init(maximumDepth: Int = FormattingLimits.maximumDepth) {
        self.maximumDepth = maximumDepth
    }

    /// Keeps the exchange of the request named `name` (a later one of the same name replaces it).
    /// Its bodies are kept as bytes: a value is found in them when a request first asks for it
    /// (most are the one value of a singular JSONPath, found by a scan), and then remembered.
    package func keep(_ record: Record, as name: String) {
        monitor.locked {
            records[name] = record
            given.removeAll()
        }
    }

    /// The value given before for the reference written `text`, if any: found without reading
    /// the reference.
    package func knownValue(_ text: String) -> String? {
        monitor.locked { given.value(for: text) }
    }

    /// The value `reference` names, as text: a JSON string's text, other JSON compact, a header's
    /// value, an XPath result's string value, or the whole body.
    package func value(of reference: RequestReference) throws(RequestReferenceError) -> String {
        // A value given before is answered without a copy of the record it came from.
        let (found, known) = monitor.locked { () -> (Record?, String?) in
            if let known = given.value(for: reference.text) { return (nil, known) }
            return (records[reference.name], nil)
        }
        if let known { return known }
        guard let record = found else {
            throw RequestReferenceError(
                "{{\(reference.text)}}: request \(reference.name) has no response to take it from (its transfer "
                    + "failed before a response came, or it did not run)")
        }
        let value: String
        do {
            value = try self.value(of: reference, in: record)
        } catch {
            // What a failed response lacks is likely why it failed: its status says so.
            let code = record.responseHead.statusCode
            guard reference.side == .response, !(200..<300).contains(code) else { throw error }
            throw RequestReferenceError(error.reason + " (\(reference.name)'s response was HTTP \(code))")
        }
        if value.utf8.count <= Self.givenLengthLimit {
            monitor.locked { given.remember(value, for: reference.text) }
        }
        return value
    }

    /// The value `reference` names in `record`.
    private func value(of reference: RequestReference, in record: Record) throws(RequestReferenceError) -> String {
        let body: [UInt8]
        switch reference.side {
        case .response:
            if case .header(let name) = reference.part {
                guard let value = record.responseHead.value(for: name) else {
                    throw RequestReferenceError("{{\(reference.text)}}: \(reference.name)'s response has no \(name) header")
                }
                return value
            }
            guard !record.responseTruncated else {
                throw RequestReferenceError(
                    "{{\(reference.text)}}: \(reference.name)'s response body is larger than \(Self.bodyLimit >> 20) MiB")
            }
            body = record.responseBody
        case .request:
            if case .header(let name) = reference.part {
                guard let value = record.requestHeaders.last(where: { ASCIICase.equal($0.name, name) })?.value else {
                    throw RequestReferenceError("{{\(reference.text)}}: \(reference.name)'s request has no \(name) header")
                }
                return value
            }
            guard let requestBody = record.requestBody else {
                throw RequestReferenceError(
                    "{{\(reference.text)}}: \(reference.name)'s request body was streamed from a file, not kept")
            }
            body = requestBody
        }
        switch reference.part {
        case .wholeBody, .header:
            return String(decoding: body, as: UTF8.self)
        case .jsonPath(let path):
            // The parsed body and the value found recurse a level at a time (`DeepStack`).
            return try DeepStack.run(levels: maximumDepth) { () throws(RequestReferenceError) -> String in
                try jsonValue(path, in: body, reference: reference)
            }
        case .xPath(let expression):
            let values: [String]
            do {
                values = try XPathQuery.evaluate(document: body, expression: expression)
            } catch {
                throw RequestReferenceError("{{\(reference.text)}}: \(error)")
            }
            guard let first = values.first else {
                throw RequestReferenceError("{{\(reference.text)}}: \(expression) selects nothing in \(reference.name)'s \(reference.side.rawValue) body")
            }
            return first
        }
    }

    /// The first value `path` selects in the JSON `body`, as text.
    private func jsonValue(
        _ path: String, in body: [UInt8], reference: RequestReference
    ) throws(RequestReferenceError) -> String {
        let query: JSONPathQuery
        if let known = monitor.locked({ queries[path] }) {
            query = known
        } else {
            do {
                query = try JSONPathQuery(parsing: path)
            } catch {
                throw RequestReferenceError("{{\(reference.text)}}: \(path) is not a JSONPath query: \(error)")
            }
            monitor.locked { queries[path] = query }
        }
        func notJSON(_ error: JSONParseError) -> RequestReferenceError {
            RequestReferenceError(
                "{{\(reference.text)}}: \(reference.name)'s \(reference.side.rawValue) body is "
                    + (error.depthLimit.map(FormattingLimits.tooDeep) ?? "not JSON"))
        }
        let found: JSONValue?
        if let steps = query.singularPath {
            // One value at most (`$.token`): found by a scan of the body, without a tree of it.
            do {
                found = try JSONParser.value(at: steps, inBytes: body, maximumDepth: maximumDepth)
            } catch {
                throw notJSON(error)
            }
        } else {
            let document: JSONValue
            do {
                document = try JSONParser.parse(bytes: body, maximumDepth: maximumDepth)
            } catch {
                throw notJSON(error)
            }
            do {
                found = try query.values(in: document).first
            } catch {
                throw RequestReferenceError("{{\(reference.text)}}: \(error)")
            }
        }
        guard let found else {
            throw RequestReferenceError("{{\(reference.text)}}: \(path) selects nothing in \(reference.name)'s \(reference.side.rawValue) body")
        }
        if case .string(let text) = found { return text }
        return (try? JSONWriter.encodeToString(found)) ?? ""
    }
}
