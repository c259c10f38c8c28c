import AFKit

/// Decides what an exchange's outcome counts as, the same way for a single request and for each
/// request of a run: AF validation (`--accept-status`, `--accept-type`), the envelope's verdict
/// (`--envelope`) and the status check (`--check-status`), and whether the request log calls the
/// response accepted. Reporters only tell the verdict.
struct OutcomeJudge {
    /// AF validation of the final response; nil when neither `--accept-status` nor
    /// `--accept-type` was given, so the status check decides.
    var validator: ResponseValidator?
    /// Whether a final 3xx, 4xx or 5xx fails (`--check-status`, on by default).
    var checkStatus: Bool

    init(validator: ResponseValidator?, checkStatus: Bool) {
        self.validator = validator
        self.checkStatus = checkStatus
    }

    /// The judge `options` ask for.
    init(options: Settings) {
        let validates = options.pipeline.acceptStatus != nil || options.pipeline.acceptTypes != nil
        validator =
            validates
            ? ResponseValidator(
                acceptableStatusCodes: options.pipeline.acceptStatus ?? .successful,
                acceptableContentTypes: options.pipeline.acceptTypes)
            : nil
        checkStatus = options.pipeline.checkStatus
    }

    /// What an outcome counts as: its exit status and the message that tells why it failed.
    struct Verdict: Equatable {
        /// The exit status; `.success` when nothing failed.
        var status: ExitStatus
        /// What failed, in afcli's wording; nil for a success.
        var message: String?
        /// Lines told under the message (a content type refused along with the status); nil for none.
        var detail: String?
        /// Whether only the final status failed (`--check-status`): a single request warns of it
        /// when the response is not on the terminal, where it would be seen.
        var isStatusCheck = false

        static let success = Verdict(status: .success)

        /// The verdict of a failure `error`: its documented status (never 0) and its message.
        init(failure error: any Error) {
            let (status, message, detail) = ErrorReporter.classify(error)
            self.init(status: status == .success ? .failure : status, message: message, detail: detail)
        }

        init(status: ExitStatus, message: String? = nil, detail: String? = nil, isStatusCheck: Bool = false) {
            self.status = status
            self.message = message
            self.detail = detail
            self.isStatusCheck = isStatusCheck
        }
    }

    /// The verdict on `outcome`. A transfer that failed is its error. Otherwise a failed
    /// validation decides first; then a failed assertion; then the envelope's verdict; then,
    /// without validation and without an assertion on the status, the status check.
    func verdict(_ outcome: ExchangeOutcome) -> Verdict {
        if let error = outcome.transferError { return Verdict(failure: error) }
        let code = outcome.statusCode ?? 0
        let failed = outcome.assertions.filter { !$0.passed }
        if validator == nil || validator?.validate(
            statusCode: code, contentType: outcome.contentType, bodyLength: outcome.bodyBytes) == nil,
            !failed.isEmpty
        {
            let listed = failed.map(\.failureText).joined(separator: "; ")
            return Verdict(
                status: .assertionFailed,
                message: failed.count == 1 ? "assertion failed: " + listed : "\(failed.count) assertions failed: " + listed)
        }
        // An assertion on the status says which status is expected: it replaces the status check.
        let assertsStatus = outcome.assertions.contains { $0.assertion.field == .status }
        if let validator {
            if let failure = validator.validate(
                statusCode: code, contentType: outcome.contentType, bodyLength: outcome.bodyBytes)
            {
                return Verdict(failure: failure)
            }
            return Self.verdict(outcome.envelope) ?? .success
        }
        if let enveloped = Self.verdict(outcome.envelope) { return enveloped }
        let status = ExitStatus.forFinalResponse(code: code, checkStatus: checkStatus && !assertsStatus)
        guard status != .success else { return .success }
        return Verdict(status: status, message: "HTTP \(code) \(outcome.reasonPhrase)", isStatusCheck: true)
    }

    /// Whether the request log calls the response accepted (its body logged, not the failure
    /// text): the validator's verdict, or AFNetworking's default acceptable codes (200–299).
    func accepts(_ outcome: ExchangeOutcome) -> Bool {
        guard outcome.transferError == nil, let code = outcome.statusCode else { return false }
        return (validator ?? ResponseValidator()).validate(
            statusCode: code, contentType: outcome.contentType, bodyLength: outcome.bodyBytes) == nil
    }

    /// The envelope's verdict; nil when it calls for none (no envelope read, or a success).
    private static func verdict(_ reading: EnvelopeReading?) -> Verdict? {
        switch reading {
        case nil, .success?: return nil
        case .failure(let message)?: return Verdict(status: .envelopeFailure, message: message)
        case .commonFailure(let message)?: return Verdict(status: .envelopeCommonFailure, message: message)
        case .unreadable(let error)?: return Verdict(failure: error)
        }
    }
}
