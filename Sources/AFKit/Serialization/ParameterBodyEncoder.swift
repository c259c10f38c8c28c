/// A body built in memory, with the `Content-Type` that describes it.
package struct EncodedBody: Equatable, Sendable {
    package var bytes: [UInt8]
    package var contentType: String

    package init(bytes: [UInt8], contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }
}

/// The media types afcli's request serializers announce.
package enum MediaType {
    /// AF's `AFJSONRequestSerializer` type (no charset parameter).
    package static let json = "application/json"
    /// AF's `AFHTTPRequestSerializer` form type; AF adds no charset, so afcli adds none either.
    package static let form = "application/x-www-form-urlencoded"
    /// AF's `AFPropertyListRequestSerializer` type.
    package static let propertyList = "application/x-plist"
    /// The `Accept` afcli sends with a JSON body, as HTTPie does.
    package static let acceptJSON = "application/json, */*;q=0.5"
    /// The `Accept` afcli sends otherwise.
    package static let acceptAny = "*/*"
}

/// Turns the parameter tree into a JSON, form or property-list body, as AF's three request
/// serializers do for methods that carry parameters in the body.
package enum ParameterBodyEncoder {
    /// The body for `parameters` under `encoding`, or nil when there is none to send.
    ///
    /// A key given twice sends its last value in JSON and property lists, and every pair in typed
    /// order in a form (DESIGN §2).
    ///
    /// JSON and property lists send nothing without parameters (AF only sets a body `if
    /// (parameters)`); a form always sends its query, so no parameters is an empty body that still
    /// carries the form `Content-Type` (AF, spec vector Q2).
    package static func encode(
        _ parameters: JSONValue?, as encoding: BodyEncoding
    ) throws(SerializationError) -> EncodedBody? {
        switch encoding {
        case .json:
            guard let parameters else { return nil }
            return EncodedBody(bytes: try JSONWriter.encode(parameters.lastValueWins), contentType: MediaType.json)
        case .form:
            let query = parameters.map(QueryStringSerializer.queryString(from:)) ?? ""
            return EncodedBody(bytes: Array(query.utf8), contentType: MediaType.form)
        case .plist:
            guard let parameters else { return nil }
            return EncodedBody(
                bytes: try PropertyListWriter.encode(parameters.lastValueWins), contentType: MediaType.propertyList)
        case .multipart:
            // Multipart bodies are streamed by MultipartFormData; RequestSerializer never asks here.
            return nil
        }
    }

    /// The `Content-Type` a body of `encoding` announces; nil for multipart, whose type carries
    /// a boundary chosen by the multipart encoder.
    package static func contentType(for encoding: BodyEncoding) -> String? {
        switch encoding {
        case .json: return MediaType.json
        case .form: return MediaType.form
        case .plist: return MediaType.propertyList
        case .multipart: return nil
        }
    }
}
