import AFKit

/// What a `Runner` tells about its entries, and where each entry's events end: the exchange
/// printer for a single request (`ExchangeReporter`), one NDJSON line per request for a run
/// (`RunLineReporter`). A reporter only tells: what an exchange counts as (its verdict and exit
/// status) is decided by the runner's `OutcomeJudge`, and the request log is written by the
/// runner, before the reporter is told.
///
/// The runner calls, for each entry: `begin` (once it is prepared), then `completed` and
/// `report` (once its engine completed it), or `didNotStart` (it could not be prepared or
/// started) or `cancelled` (Ctrl-C); `tick` after every round of the run loop; `ended` once.
protocol RunReporter: AnyObject {
    /// Where entry `index`'s events go after the pipeline's event stages; the reporter may still
    /// change the request (pace or watch its body).
    func begin(_ index: Int, entry: PlanEntry, request: inout PlannedRequest) throws -> ReportedExchange

    /// `exchange` completed, its events all delivered: the reporter ends what it wrote of it (the
    /// printer's last bytes, a body file). A throw fails the request, though the exchange
    /// succeeded (a closed standard output, a full disk).
    func completed(_ exchange: ExchangeInFlight, _ completion: ExchangeCompletion) throws

    /// Tells how entry `index` ended, judged.
    func report(_ finished: FinishedExchange) throws

    /// Entry `index` could not be prepared or handed to the engine: `error` says why.
    func didNotStart(_ index: Int, entry: PlanEntry, method: String, url: String, error: any Error) throws

    /// Ctrl-C cancelled entry `index`'s exchange; `completion` carries its times so far.
    func cancelled(_ exchange: ExchangeInFlight, _ completion: ExchangeCompletion) throws

    /// Called after every round of the run loop with the number of exchanges in flight.
    func tick(running: Int) throws

    /// The run ended (`notStarted` entries never started, a keeper having failed, or Ctrl-C).
    func ended(notStarted: Int, interrupted: Bool) throws

    /// Whether the reporter shows the requests' heads as sent (a run's `--report` files), so that
    /// the runner works out the cookies the engine sends with each.
    var showsRequestHeads: Bool { get }
}

/// What shows a plan's requests instead of sending them (`--offline`, `--curl`).
protocol RequestPreviewer: AnyObject {
    /// Shows `request` as it would be sent with `settings`.
    func show(_ request: PlannedRequest, settings: TransferSettings) throws
}

/// Where a reporter receives an exchange: the last event stage, and the printer that renders the
/// envelope's result (`--envelope`) and is told when a body is decrypted; nil when the result is
/// passed on to `delegate` as the final body.
struct ReportedExchange {
    var delegate: HTTPClientDelegate
    var printer: ExchangePrinter?
    /// What plans the exchange's tries (a download's); nil for a request sent as it is.
    var tries: (any TryPlanner)? = nil
}

/// An exchange the runner started and has not reported yet: held by reference, since the runner
/// keeps it by entry and hands it to the reporter several times.
final class ExchangeInFlight {
    let index: Int
    let entry: PlanEntry
    let method: String
    let url: String
    /// What its events recorded: the final head, the body's size and start.
    let recorder: OutcomeRecorder
    /// The envelope stage (`--envelope`), read once the answer is in.
    let envelope: EnvelopeDelegate?
    /// How its outcome is judged: `--accept-status`/`--accept-type`, else `--check-status`.
    let judge: OutcomeJudge
    /// The options it is sent with.
    let options: SharedOptions
    /// What its request log block says of the request; nil when the run does not log.
    let logFields: RequestLogFields?
    /// Where the reporter receives its events (what `begin` gave).
    let receiver: HTTPClientDelegate?
    /// What its response must satisfy (`??` lines).
    let assertions: [ResponseAssertion]
    /// The request as prepared, with the `Cookie` field the engine sends for it, and the settings
    /// it is sent with: kept only when the reporter or a later reference shows them, else nil.
    let request: PreparedRequest?
    let settings: TransferSettings?
    /// How many times it is sent again while its assertions fail.
    let conditionRetries: Int

    init(
        index: Int, entry: PlanEntry, method: String, url: String, recorder: OutcomeRecorder,
        envelope: EnvelopeDelegate?, judge: OutcomeJudge, options: SharedOptions, logFields: RequestLogFields?,
        receiver: HTTPClientDelegate? = nil, assertions: [ResponseAssertion] = [], request: PreparedRequest? = nil,
        settings: TransferSettings? = nil, conditionRetries: Int = 0
    ) {
        self.index = index
        self.entry = entry
        self.method = method
        self.url = url
        self.recorder = recorder
        self.envelope = envelope
        self.judge = judge
        self.options = options
        self.logFields = logFields
        self.receiver = receiver
        self.assertions = assertions
        self.request = request
        self.settings = settings
        self.conditionRetries = conditionRetries
    }
}

/// An exchange that ended, judged: what a reporter tells.
struct FinishedExchange {
    let exchange: ExchangeInFlight
    let completion: ExchangeCompletion
    /// The outcome the judge read, with any error of the reporter's own `completed`.
    let outcome: ExchangeOutcome
    let verdict: OutcomeJudge.Verdict
    /// How many times it was sent (more than once when failed assertions sent it again).
    var tries = 1

    var index: Int { exchange.index }
}
