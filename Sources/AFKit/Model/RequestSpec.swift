/// What the user asked for, independent of argv and of the wire: the input of the serializers.
///
/// The CLI layer fills it from the command line; AFKit turns it into a `PreparedRequest`.
package struct RequestSpec: Sendable {
    /// The method in upper case (`GET`, `POST`, or any token given with `--method`).
    package var method: String
    /// The absolute URL after shorthand expansion and base-URL resolution, before `==` items and
    /// GET/HEAD/DELETE parameters are added.
    package var url: String {
        didSet { urlIsFinal = false }
    }
    /// Whether `url` is known to go out exactly as it is: already what
    /// `URLReference.parseRequestURL` makes of it (validated, encoded, normalized) and without user
    /// information, so the serializer need not parse and print it again. Changing `url` clears it.
    package var urlIsFinal = false
    /// `name==value` items in the order typed; appended to the URL's query AF-escaped.
    package var queryItems: [QueryItem]
    /// Header items in the order typed.
    package var headers: [HeaderItem]
    /// The parameter tree built from data items (`=`, `:=`, `=@`, `:=@`, nested keys); nil when
    /// there are none. Always an object or an array at the top.
    package var parameters: JSONValue?
    /// `field@path` items, in the order typed.
    package var files: [FileItem]
    /// A raw body (`--raw`, `@path`, stdin), exclusive with `parameters` and `files`.
    package var rawBody: RawBody?
    /// How parameters become a body.
    package var encoding: BodyEncoding
    /// Credentials from `--auth` or the URL; nil when none.
    package var credentials: Credentials?

    package init(
        method: String, url: String, queryItems: [QueryItem] = [], headers: [HeaderItem] = [],
        parameters: JSONValue? = nil, files: [FileItem] = [], rawBody: RawBody? = nil,
        encoding: BodyEncoding = .json, credentials: Credentials? = nil
    ) {
        self.method = method
        self.url = url
        self.queryItems = queryItems
        self.headers = headers
        self.parameters = parameters
        self.files = files
        self.rawBody = rawBody
        self.encoding = encoding
        self.credentials = credentials
    }
}

/// A `name==value` query item.
package struct QueryItem: Equatable, Sendable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A header item: `Name:value` sets, `Name;` sends an empty value, `Name:` removes the header
/// (including a default such as User-Agent).
package struct HeaderItem: Equatable, Sendable {
    package var name: String
    /// nil removes the header; "" sends it empty.
    package var value: String?

    package init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}

/// A `field@path` item, optionally with `;type=` and `;filename=`.
package struct FileItem: Equatable, Sendable {
    package var field: String
    /// A file path, or `-` for standard input.
    package var path: String
    package var contentType: String?
    package var filename: String?

    package init(field: String, path: String, contentType: String? = nil, filename: String? = nil) {
        self.field = field
        self.path = path
        self.contentType = contentType
        self.filename = filename
    }
}

/// Where a raw request body comes from.
package enum RawBody: Equatable, Sendable {
    /// Bytes given on the command line (`--raw`).
    case bytes([UInt8])
    /// A file streamed from disk (`@path`); `contentType` from `;type=` if given.
    case file(path: String, contentType: String?)
    /// Standard input, streamed.
    case standardInput
}

/// How data items are encoded into a body.
package enum BodyEncoding: String, Equatable, Sendable, CaseIterable {
    case json
    case form
    case multipart
    case plist
}

/// Credentials from `-a/--auth` with `-A`, or from the URL's user information.
package enum Credentials: Equatable, Sendable {
    /// `Authorization: Basic base64(user:password)`, computed by afcli (AF's format).
    case basic(user: String, password: String)
    /// HTTP Digest, negotiated by libcurl (needs a challenge round trip).
    case digest(user: String, password: String)
    /// `Authorization: Bearer token`.
    case bearer(token: String)
    /// NTLM, negotiated by libcurl (a challenge round trip).
    case ntlm(user: String, password: String)
    /// Negotiate (SPNEGO), negotiated by libcurl with the system's Kerberos ticket.
    case negotiate(user: String, password: String)
}
