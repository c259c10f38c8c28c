import AFCurl
import Glibc

/// A `MultiClient` driven by a thread of its own: one lane of a `LaneEngine`.
///
/// The engine hands it orders (`send`) and it posts the exchanges that completed to the
/// engine's `LaneMailbox`. Everything an exchange does while in flight happens on the lane's
/// thread: its libcurl transfers, the callbacks and the delegate events they raise. The objects
/// an order carries pass to the lane with the order, and back with its completion: the thread
/// that started an exchange touches them again only once it took the completion.
final class ClientLane: @unchecked Sendable {
    /// The lane's client; the engine's again once the lane is stopped.
    let client: MultiClient
    private let mailbox: LaneMailbox
    private let monitor = Monitor()
    /// Orders handed over and not yet started by the lane.
    private var orders: [ExchangeOrder] = []
    private var stopping = false
    /// Whether the thread waits on the monitor (nothing in flight) or in libcurl's poll.
    private var sleeping = false
    private var polling = false
    private var thread: pthread_t?

    /// Starts the lane's thread; nil when the system cannot start one.
    init?(client: MultiClient, mailbox: LaneMailbox) {
        self.client = client
        self.mailbox = mailbox
        guard let thread = JoinableThread.start({ [self] in work() }) else { return nil }
        self.thread = thread
    }

    /// Hands `order` to the lane, waking its thread.
    func send(_ order: ExchangeOrder) {
        monitor.lock()
        orders.append(order)
        let (sleeps, polls) = (sleeping, polling)
        polling = false
        if sleeps { monitor.broadcast() }
        monitor.unlock()
        if polls { client.wakeup() }
    }

    /// Stops the thread and waits for it to end; the exchanges still in flight stay on `client`
    /// (the caller cancels them), and orders not started yet are returned.
    func stop() -> [ExchangeOrder] {
        monitor.lock()
        stopping = true
        let polls = polling
        monitor.broadcast()
        monitor.unlock()
        if polls { client.wakeup() }
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        return monitor.locked {
            defer { orders = [] }
            return orders
        }
    }

    /// The lane's loop: start what was handed over, run the transfers, post what completed, and
    /// wait for activity (a transfer's, or a new order).
    private func work() {
        while true {
            monitor.lock()
            while orders.isEmpty && client.inFlight == 0 && !stopping {
                sleeping = true
                monitor.wait()
                sleeping = false
            }
            if stopping {
                monitor.unlock()
                return
            }
            let handed = orders
            orders.removeAll(keepingCapacity: true)
            monitor.unlock()
            var completed: [ExchangeCompletion] = []
            for order in handed {
                do {
                    if let done = try client.start(order) { completed.append(done) }
                } catch {
                    completed.append(ExchangeCompletion(tag: order.tag, result: .failure(error)))
                }
            }
            do {
                completed += try client.run()
            } catch {
                // libcurl itself failed: every exchange of the lane ends with its error.
                for each in client.cancelAll() {
                    completed.append(ExchangeCompletion(tag: each.tag, result: .failure(error)))
                }
            }
            if !completed.isEmpty {
                mailbox.post(completed)
                continue
            }
            guard client.inFlight > 0 else { continue }
            monitor.lock()
            let waits = orders.isEmpty && !stopping
            polling = waits
            monitor.unlock()
            guard waits else { continue }
            try? client.poll(timeoutMilliseconds: 100) { monitor.locked { !polling } }
            monitor.locked { polling = false }
        }
    }
}

/// Where a `LaneEngine`'s lanes post the exchanges that completed, for the engine's thread to
/// take; it wakes that thread when it waits in its own poll.
final class LaneMailbox: @unchecked Sendable {
    private let monitor = Monitor()
    private var posted: [ExchangeCompletion] = []
    /// Whether the engine's thread waits (or is about to) in `home`'s poll.
    private var homeWaits = false
    private let home: MultiClient

    init(home: MultiClient) {
        self.home = home
    }

    /// Posts what a lane completed, waking the engine's thread if it waits.
    func post(_ completions: [ExchangeCompletion]) {
        monitor.lock()
        posted += completions
        let wakes = homeWaits
        homeWaits = false
        monitor.unlock()
        if wakes { home.wakeup() }
    }

    /// Everything posted so far, in the order it was posted.
    func take() -> [ExchangeCompletion] {
        monitor.lock()
        defer { monitor.unlock() }
        guard !posted.isEmpty else { return [] }
        defer { posted.removeAll(keepingCapacity: true) }
        return posted
    }

    /// Marks the engine's thread as about to wait in `home`'s poll; false when something was
    /// posted already (it then should not wait).
    func willWait() -> Bool {
        monitor.locked {
            homeWaits = posted.isEmpty
            return homeWaits
        }
    }

    /// Whether a lane woke the engine's thread since `willWait`.
    func wasWoken() -> Bool {
        monitor.locked { !homeWaits }
    }

    /// Marks the wait as over.
    func waited() {
        monitor.locked { homeWaits = false }
    }
}
