import AFKit

/// One request of a batch (`afcli run`): its name, where it was written, whether it is a keeper,
/// and how to build it when its turn comes.
///
/// An entry holds only what it was written as; the request (and any body file it opens) is built
/// by `prepare` just before it is sent, so 10,000 queued entries never hold 10,000 bodies.
struct BatchEntry {
    /// The request's name: `# @name`, the text after `###`, or one made from its position.
    var name: String
    /// Where it was written, for messages: `api.http:12`, `stdin:3`.
    var origin: String
    /// Whether it must complete before any other request starts (`# @first`, `--first NAME`).
    var isKeeper: Bool
    /// Builds the request and the options it is sent with (the run's options with the entry's
    /// own applied: `# @no-redirect`, `# @timeout`, a command line's options).
    var prepare: () throws -> BatchRequest
}

/// An entry's request, built and ready to send.
struct BatchRequest {
    /// The serialized request.
    var prepared: PreparedRequest
    /// The options it is sent with.
    var options: OptionValues
    /// An object standing for `options` when several requests share them (a run's options, or
    /// one line's): requests with the same identity have equal options, so the run need not
    /// compare them. Nil when unknown.
    var optionsIdentity: ObjectIdentifier?

    init(prepared: PreparedRequest, options: OptionValues, optionsIdentity: ObjectIdentifier? = nil) {
        self.prepared = prepared
        self.options = options
        self.optionsIdentity = optionsIdentity
    }
}
