/// Decides which request of a batch starts next: at most `parallel` in flight, keepers first
/// (CJNetwork's keeper requests: every keeper completes before any other request starts), the
/// rest in the order written, and no new start after a failure unless `keepGoing`.
///
/// It only orders indexes; preparing, sending and reporting are the run's. Keepers run among
/// themselves with the same parallelism. A request that takes values from earlier ones
/// (`dependencies`) starts only once they have ended; the requests after it that need nothing
/// still start meanwhile.
struct BatchScheduler {
    /// The most requests in flight at once.
    let parallel: Int
    /// Whether requests still start after one has failed.
    let keepGoing: Bool

    /// Keepers not yet started, in the order written.
    private var keepers: [Int]
    /// The other requests not yet started, in the order written.
    private var others: [Int]
    /// Where the next start is read from in `keepers` and `others`.
    private var nextKeeper = 0
    private var nextOther = 0
    /// Requests started and not yet finished, and how many of them are keepers.
    private(set) var running: Set<Int> = []
    private var runningKeepers = 0
    /// Which requests are keepers.
    private let isKeeper: [Bool]
    /// Whether no request starts any more (a failure without `keepGoing`, or an interrupt).
    private(set) var isStopped = false
    /// For each request, the requests it takes values from; empty for most.
    private let dependencies: [[Int]]
    /// Which requests have ended, by index; empty when no request depends on another.
    private var ended: [Bool]
    /// Requests passed over because what they depend on had not ended, in the order written.
    /// One that starts is marked in `waitingStarted`, not removed: a run of 2,000 requests that
    /// all wait for a login would otherwise move the rest of the list at every start.
    private var waiting: [Int] = []
    /// Whether the request at each position of `waiting` has started.
    private var waitingStarted: [Bool] = []
    /// Where the first request of `waiting` that has not started is, or past it.
    private var waitingStart = 0
    /// How many requests of `waiting` have not started.
    private var waitingLeft = 0
    /// Requests started and not finished that wait to be sent again (their assertions failed and
    /// they have tries left): with `parallel` above 1 they give up their slot while they wait.
    private var resting: Set<Int> = []
    /// Resting requests due to be sent again that found every slot taken: the next slot to free
    /// is theirs, not a new request's.
    private var dueToWake: Set<Int> = []

    /// A schedule for requests `0..<isKeeper.count`.
    init(isKeeper: [Bool], parallel: Int, keepGoing: Bool, dependencies: [[Int]] = []) {
        self.isKeeper = isKeeper
        self.parallel = max(1, parallel)
        self.keepGoing = keepGoing
        self.dependencies = dependencies
        ended = dependencies.isEmpty ? [] : Array(repeating: false, count: isKeeper.count)
        keepers = isKeeper.indices.filter { isKeeper[$0] }
        others = isKeeper.indices.filter { !isKeeper[$0] }
    }

    /// Whether everything request `index` depends on has ended.
    private func isReady(_ index: Int) -> Bool {
        index >= dependencies.count || dependencies[index].allSatisfy { ended[$0] }
    }

    /// The positions in `waiting` of the requests there that have not started, in order.
    private var pendingWaitingPositions: LazyFilterSequence<Range<Int>> {
        (waitingStart..<waiting.count).lazy.filter { !waitingStarted[$0] }
    }

    /// The next request to start now, marked as running; nil when none may start yet (the limit
    /// is reached, keepers are still in flight, what is left waits for requests in flight, or
    /// the run stopped) or none is left.
    mutating func next() -> Int? {
        guard !isStopped, running.count - resting.count + dueToWake.count < parallel else { return nil }
        let index: Int
        if nextKeeper < keepers.count {
            guard isReady(keepers[nextKeeper]) else { return nil }
            index = keepers[nextKeeper]
            nextKeeper += 1
            runningKeepers += 1
        } else if runningKeepers == 0, let position = pendingWaitingPositions.first(where: { isReady(waiting[$0]) }) {
            index = waiting[position]
            waitingStarted[position] = true
            waitingLeft -= 1
            while waitingStart < waiting.count, waitingStarted[waitingStart] { waitingStart += 1 }
        } else if runningKeepers == 0, let found = nextReadyOther() {
            index = found
        } else {
            return nil
        }
        running.insert(index)
        return index
    }

    /// The next request in the order written that may start, passing over (into `waiting`)
    /// those that wait for others.
    private mutating func nextReadyOther() -> Int? {
        while nextOther < others.count {
            let index = others[nextOther]
            nextOther += 1
            if isReady(index) { return index }
            waiting.append(index)
            waitingStarted.append(false)
            waitingLeft += 1
        }
        return nil
    }

    /// The request `next()` will give once a slot is free and the keepers in flight are done;
    /// nil when the run stopped or nothing is left. Nothing is marked.
    var upcoming: Int? {
        guard !isStopped else { return nil }
        if nextKeeper < keepers.count { return keepers[nextKeeper] }
        return nextOther < others.count ? others[nextOther] : nil
    }

    /// The first request not started yet that `matches` and may start as far as what it
    /// depends on goes (those waiting first, then up to `limit` more in the order written);
    /// nothing is marked. For preparing ahead a request that takes values from others.
    func upcoming(limit: Int, where matches: (Int) -> Bool) -> Int? {
        guard !isStopped, nextKeeper >= keepers.count else { return nil }
        if let position = pendingWaitingPositions.first(where: { matches(waiting[$0]) && isReady(waiting[$0]) }) {
            return waiting[position]
        }
        var position = nextOther
        while position < others.count, position < nextOther + limit {
            let index = others[position]
            if matches(index) { return isReady(index) ? index : nil }
            position += 1
        }
        return nil
    }

    /// Records that request `index`, in flight, waits to be sent again: under `--parallel` its
    /// slot goes to the next request meanwhile; true when it did. One after the other (`parallel`
    /// 1), it keeps the slot, so a request polling a job ends before the next one starts, as
    /// written; so does it while `parallel` others rest already (what waits holds its body: at
    /// most as many as are in flight).
    @discardableResult
    mutating func rest(_ index: Int) -> Bool {
        guard parallel > 1, running.contains(index), resting.count < parallel else { return false }
        resting.insert(index)
        return true
    }

    /// Takes a slot again for request `index`, resting since `rest(_:)`, to send it again;
    /// false while every slot is taken (it waits on, and the next slot to free is kept for it).
    /// True for a request that kept its slot.
    mutating func wake(_ index: Int) -> Bool {
        guard resting.contains(index) else { return true }
        guard running.count - resting.count < parallel else {
            dueToWake.insert(index)
            return false
        }
        resting.remove(index)
        if !dueToWake.isEmpty { dueToWake.remove(index) }
        return true
    }

    /// Records that request `index` ended; a failure stops new starts unless `keepGoing`.
    mutating func finished(_ index: Int, succeeded: Bool) {
        if !dependencies.isEmpty { ended[index] = true }
        resting.remove(index)
        if !dueToWake.isEmpty { dueToWake.remove(index) }
        guard running.remove(index) != nil else { return }
        if isKeeper[index] { runningKeepers -= 1 }
        if !succeeded && !keepGoing { isStopped = true }
    }

    /// Stops new starts (Ctrl-C); requests in flight are left to the caller.
    mutating func stop() {
        isStopped = true
    }

    /// The requests that never started because the run stopped.
    var notStarted: Int {
        (keepers.count - nextKeeper) + (others.count - nextOther) + waitingLeft
    }

    /// Whether nothing is in flight and nothing more will start.
    var isDone: Bool {
        running.isEmpty && (isStopped || notStarted == 0)
    }

    /// The descriptors one request of a run may hold at once: its connection and the body files of
    /// up to two prepared requests (one in flight, one built ahead), plus its `--output-dir` file;
    /// when the run sends requests again (`--retry`), the body of one that gave its slot up while
    /// it waits for its next try too.
    static func descriptorsPerRequest(savesBodies: Bool, resends: Bool = false) -> Int {
        (savesBodies ? 4 : 3) + (resends ? 1 : 0)
    }

    /// Descriptors kept for everything else: standard streams, the log file, libcurl's own.
    static let reservedDescriptors = 32

    /// The most requests that may be in flight when `openFileLimit` descriptors may be open: the
    /// `requested` number, or fewer when that many would run out of descriptors and fail every
    /// request past the limit (with errors that name connections and files, not the limit).
    static func affordable(_ requested: Int, openFileLimit: Int, perRequest: Int) -> Int {
        let room = max(0, openFileLimit - reservedDescriptors) / perRequest
        return max(1, min(requested, room))
    }
}
