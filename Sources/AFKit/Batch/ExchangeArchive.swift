import AFCurl

/// The exchanges of a run that later requests take values from (`{{login.response.body.$.token}}`):
/// for each named request another refers to, its request's head and body (when it was in memory)
/// and its response's head and body (up to `bodyLimit`), kept once it succeeded.
///
/// Written and read on the run's own thread: a request that refers to another is prepared only
/// when that one has ended.
package final class ExchangeArchive {
    /// The most of a response body kept for references (16 MiB).
    package static let bodyLimit = 16 << 20

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

    package init() {}

    /// Keeps the exchange of the request named `name` (a later one of the same name replaces it).
    package func keep(_ record: Record, as name: String) {
        records[name] = record
    }

    /// The value `reference` names, as text: a JSON string's text, other JSON compact, a header's
    /// value, an XPath result's string value, or the whole body.
    package func value(of reference: RequestReference) throws(RequestReferenceError) -> String {
        guard let record = records[reference.name] else {
            throw RequestReferenceError(
                "{{\(reference.text)}}: request \(reference.name) has no response to take it from (it failed or did not run)")
        }
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
            return try Self.jsonValue(path, in: body, reference: reference)
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
    private static func jsonValue(
        _ path: String, in body: [UInt8], reference: RequestReference
    ) throws(RequestReferenceError) -> String {
        let query: JSONPathQuery
        do {
            query = try JSONPathQuery(parsing: path)
        } catch {
            throw RequestReferenceError("{{\(reference.text)}}: \(path) is no JSONPath query: \(error)")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: body)
        } catch {
            throw RequestReferenceError("{{\(reference.text)}}: \(reference.name)'s \(reference.side.rawValue) body is not JSON")
        }
        let values: [JSONValue]
        do {
            values = try query.values(in: document)
        } catch {
            throw RequestReferenceError("{{\(reference.text)}}: \(error)")
        }
        guard let first = values.first else {
            throw RequestReferenceError("{{\(reference.text)}}: \(path) selects nothing in \(reference.name)'s \(reference.side.rawValue) body")
        }
        if case .string(let text) = first { return text }
        return (try? JSONWriter.encodeToString(first)) ?? ""
    }
}
