/// One named environment of the config file (CJNetwork's environment model): where relative URLs
/// go, what every request carries, how answers are wrapped and encrypted, and where simulated and
/// local answers come from.
///
/// It is plain data: the config loader fills it, and the pipeline stages (environment, encryption,
/// cache, transport, decryption, envelope) each read the fields they need.
package struct EnvironmentProfile: Equatable, Sendable {
    /// The environment's name in the config (`dev`).
    package var name: String
    /// The base a relative URL is joined to (`http://127.0.0.1:8080/api/`); nil for none.
    package var baseURL: String?
    /// Common parameters, in the config's order: the query of GET/HEAD/DELETE, else body fields.
    package var parameters: [CommonParameter] = []
    /// Common headers, in the config's order; a request's own header of the same name wins.
    package var headers: [HTTPField] = []
    /// How response bodies are wrapped (`--envelope`); nil when the environment has no envelope.
    package var envelope: EnvelopeSpec?
    /// The shell command the serialized body is piped through before sending; nil for none.
    package var encryptCommand: String?
    /// The shell command the response body is piped through before validation; nil for none.
    package var decryptCommand: String?
    /// The origin `--simulate` sends requests to instead of the base URL's; nil for none.
    package var simulateDomain: String?
    /// The directory `--local` answers from; nil for none.
    package var localDirectory: String?
    /// The cache policy applied when no `--cache` is given (a `--cache` value); nil for none.
    package var cachePolicy: String?
    /// The lifetime of the CJ cache strategies when no `--cache-ttl` is given (a `--cache-ttl`
    /// value: `10m`, `forever`); nil for none.
    package var cacheLifetime: String?
    /// The cache's namespace for this environment (CJNetwork's app-version slot); nil for none.
    package var cacheNamespace: String?

    package init(name: String) {
        self.name = name
    }
}

/// One common parameter: a name and its value as it would be typed in a `name=value` item, or a
/// JSON value for structured ones.
package struct CommonParameter: Equatable, Sendable {
    /// The parameter's name.
    package var name: String
    /// The value: `.text` goes out as typed (`=`), `.json` as a JSON value (`:=`).
    package var value: Value

    /// A common parameter's value.
    package enum Value: Equatable, Sendable {
        /// A string value.
        case text(String)
        /// Raw JSON text (a number, boolean, null, array or object).
        case json(String)
    }

    package init(name: String, value: Value) {
        self.name = name
        self.value = value
    }
}

/// How an API wraps its answers (CJNetwork's response envelope): which keys hold the status, the
/// message and the result, and which status values mean success or a common failure.
package struct EnvelopeSpec: Equatable, Sendable {
    /// The key of the status value (default `status`).
    package var statusKey: String = "status"
    /// The key of the human-readable message (default `message`).
    package var messageKey: String = "message"
    /// The key of the payload printed on success (default `result`).
    package var resultKey: String = "result"
    /// Status values (as text: `0`, `"ok"` → `ok`) meaning success.
    package var success: [String] = []
    /// Status values meaning CJNetwork's common failure ("logged in elsewhere" and the like).
    package var commonFailure: [String] = []

    package init() {}
}
