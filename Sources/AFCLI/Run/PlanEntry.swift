import AFKit

/// One request of a batch (`afcli run`): its name, where it was written, whether it is a keeper,
/// and how to build it when its turn comes.
///
/// An entry holds only what it was written as; the request (and any body file it opens) is built
/// by `prepare` just before it is sent, so 10,000 queued entries never hold 10,000 bodies.
struct PlanEntry {
    /// The request's name: `# @name`, the text after `###`, or one made from its position.
    var name: String
    /// Where it was written, for messages: `api.http:12`, `stdin:3`.
    var origin: String
    /// Whether it must complete before any other request starts (`# @first`, `--first NAME`).
    var isKeeper: Bool
    /// Builds the request and the options it is sent with (the run's options with the entry's
    /// own applied: `# @no-redirect`, `# @timeout`, a command line's options).
    var prepare: () throws -> PlannedRequest
    /// The entries it takes values from (`{{login.response.body.$.token}}`): it is prepared and
    /// started only once they have ended.
    var dependencies: [Int] = []
    /// The name its exchange is kept under for later entries to take values from; nil when no
    /// entry refers to it.
    var archivedAs: String? = nil
    /// Its method and URL as written (`{{host}}/users`): what its line says of it when it could
    /// not be built, or never started; the built request's replace them otherwise. Worked out
    /// only then, so a batch of many lines pays nothing for it.
    var written: () -> (method: String, url: String) = { ("", "") }
}

/// Resolved settings held by reference: many requests of a run share one value, which a request
/// then carries without copying it, and whose identity spares comparing it.
final class SharedOptions {
    let settings: ResolvedSettings

    init(_ settings: ResolvedSettings) {
        self.settings = settings
    }

    /// The options as parsed.
    var values: Settings { settings.options }
}

/// An entry's request, built and ready to send.
struct PlannedRequest {
    /// The serialized request.
    var prepared: PreparedRequest
    /// The options it is sent with.
    var shared: SharedOptions
    /// Whether other requests carry the same `shared` (a run's options, or one line's): requests
    /// with the same object then have equal options, so the run need not compare them.
    var isShared: Bool
    /// What its request log block says of it, when the run logs (`--log=cj`).
    var logFields: RequestLogFields?
    /// Whether it uses the run's cookie engine (not with `# @no-cookie-jar`).
    var sendsCookies = true
    /// What its response must satisfy (a `.http` request's `??` lines); empty for nothing.
    var assertions: [ResponseAssertion] = []
    /// How many times it is sent again while its assertions fail (`# @retry N`, else the run's
    /// `--retry`).
    var conditionRetries = 0

    /// The options it is sent with.
    var options: Settings { shared.values }
    /// The command its final 2xx body is decrypted with (`--decrypt-cmd`, or the environment's).
    var decryptCommand: String? { shared.settings.decryptCommand }
    /// The envelope its final 2xx body is read as (`--envelope`); nil to pass the body on as it is.
    var envelope: EnvelopeSpec? { shared.settings.envelope }

    /// An object standing for `options` when several requests share them; nil when unknown.
    var optionsIdentity: ObjectIdentifier? { isShared ? ObjectIdentifier(shared) : nil }

    /// A request sent with settings of its own.
    init(prepared: PreparedRequest, settings: ResolvedSettings) {
        self.init(prepared: prepared, shared: SharedOptions(settings), isShared: false)
    }

    /// A request sent with `shared`, which other requests may carry too when `isShared`.
    init(prepared: PreparedRequest, shared: SharedOptions, isShared: Bool) {
        self.prepared = prepared
        self.shared = shared
        self.isShared = isShared
    }
}
