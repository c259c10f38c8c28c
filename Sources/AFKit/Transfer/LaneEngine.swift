import AFCurl
import Glibc

/// The engine of `afcli run`: a `MultiClient` on the calling thread (the home lane) and, once the
/// run is spread (`spread(over:)`), more `MultiClient`s each on a thread of its own
/// (`ClientLane`). Transfers, and the work they give the kernel's network stack, then run on two
/// cores instead of one: on a batch of small requests over loopback it is about half a run's CPU.
///
/// - A new request goes to the lane whose load is lowest, the home lane's load counting one and a
///   half times (its thread also prepares, judges and reports every request): about 40 % of the
///   requests run at home.
/// - A request that may travel as an HTTP/2 stream always runs at home, so the streams to one
///   origin share one connection, as on a single multi handle.
/// - Every lane sends and stores cookies in one cookie engine (`CookieShare`, whose locks let
///   transfers on several threads use it).
/// - An exchange's delegate events come on its lane's thread, its completion on the calling
///   thread (`run`). The delegates of one exchange are used by one thread at a time; those of
///   different exchanges must not share anything that changes while they run. Engine decorators
///   whose delegates report to the decorator (the cache, retries, OAuth 2) need one lane.
///
/// Unspread, it is its home `MultiClient` and nothing more.
package final class LaneEngine: ExchangeEngine {
    private let home: MultiClient
    private var lanes: [ClientLane] = []
    private let mailbox: LaneMailbox
    private let maxConnections: Int
    /// The lane each exchange in flight runs on (0: home), by tag.
    private var laneOf: [Int: Int] = [:]
    /// Exchanges in flight on each lane.
    private var loads = [0]

    /// An engine that opens at most `maxConnections` connections a lane (0: no limit), its cookie
    /// engine seeded from `cookies` (a Netscape file and lines).
    package init(maxConnections: Int = 0, cookies: CookieSettings = CookieSettings()) throws {
        self.maxConnections = maxConnections
        home = try MultiClient(maxConnections: maxConnections, cookies: cookies)
        mailbox = LaneMailbox(home: home)
    }

    deinit {
        for lane in lanes { _ = lane.stop() }
    }

    /// How many lanes a run of up to `parallel` requests at once spreads over: one per core, at
    /// most two (a third was slower on two cores, and more were not measured), and one for
    /// requests sent one at a time.
    package static func laneCount(parallel: Int) -> Int {
        guard parallel > 1 else { return 1 }
        return max(1, min(2, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Adds lanes up to `count` in all, each on a thread of its own; fewer when the system cannot
    /// start a thread. Call before the first request.
    package func spread(over count: Int) throws {
        while lanes.count + 1 < count {
            let client = try MultiClient(maxConnections: maxConnections, sharingCookiesOf: home)
            guard let lane = ClientLane(client: client, mailbox: mailbox) else { return }
            lanes.append(lane)
            loads.append(0)
        }
    }

    /// The number of lanes, the home lane included.
    package var laneCount: Int { lanes.count + 1 }

    /// Every cookie the engine holds now, as Netscape lines.
    package var cookieLines: [String] { home.cookieLines }

    /// Whether the engine holds other cookies than its cookie file did.
    package func cookiesChanged(_ lines: [String]) -> Bool { home.cookiesChanged(lines) }

    package func cookieHeader(for url: String) -> String? { home.cookieHeader(for: url) }

    package func adoptCookieFields(of request: inout PreparedRequest) throws { try home.adoptCookieFields(of: &request) }

    package var inFlight: Int { lanes.isEmpty ? home.inFlight : laneOf.count }

    package func start(_ order: ExchangeOrder) throws -> ExchangeCompletion? {
        guard !lanes.isEmpty else { return try home.start(order) }
        let lane = lane(for: order)
        if lane == 0 {
            _ = try home.start(order)
        } else {
            lanes[lane - 1].send(order)
        }
        laneOf[order.tag] = lane
        loads[lane] += 1
        return nil
    }

    private func lane(for order: ExchangeOrder) -> Int {
        Self.lane(
            loads: loads,
            multiplexes: MultiHandle.canMultiplex(url: order.request.url, httpVersion: order.options.httpVersion))
    }

    /// The lane a request goes to, given the exchanges in flight on each (`loads`, home first,
    /// at least two): the one with the lowest load, the home lane's counting 3 to the others' 2;
    /// the home lane for a request that may be an HTTP/2 stream (`multiplexes`).
    static func lane(loads: [Int], multiplexes: Bool) -> Int {
        if multiplexes { return 0 }
        var best = 1
        for lane in 2..<loads.count where loads[lane] < loads[best] { best = lane }
        return 3 * loads[0] < 2 * loads[best] ? 0 : best
    }

    package func run() throws -> [ExchangeCompletion] {
        var completed = try home.run()
        guard !lanes.isEmpty else { return completed }
        for each in completed { ended(each.tag) }
        for each in mailbox.take() {
            ended(each.tag)
            completed.append(each)
        }
        return completed
    }

    /// Forgets the lane of an exchange that completed.
    private func ended(_ tag: Int) {
        guard let lane = laneOf.removeValue(forKey: tag) else { return }
        loads[lane] -= 1
    }

    package func poll(timeoutMilliseconds: Int) throws {
        guard !lanes.isEmpty else { return try home.poll(timeoutMilliseconds: timeoutMilliseconds) }
        // The home lane's poll also ends when another lane posts a completion.
        guard mailbox.willWait() else { return }
        defer { mailbox.waited() }
        try home.pollOrWakeup(timeoutMilliseconds: timeoutMilliseconds) { mailbox.wasWoken() }
    }

    /// Stops the other lanes' threads and cancels every exchange in flight, theirs here with the
    /// home lane's; requests started later run at home.
    package func cancelAll() -> [ExchangeCompletion] {
        var cancelled: [ExchangeCompletion] = []
        for lane in lanes {
            for order in lane.stop() {
                cancelled.append(ExchangeCompletion(tag: order.tag, result: .failure(CurlError.interrupted(signal: 0))))
            }
            cancelled += lane.client.cancelAll()
        }
        cancelled += mailbox.take()
        cancelled += home.cancelAll()
        lanes = []
        laneOf = [:]
        loads = [0]
        return cancelled
    }
}
