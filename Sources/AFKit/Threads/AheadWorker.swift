import Glibc

/// Makes the items `0..<count` on a worker thread, in order, while the calling thread takes
/// them: at most `capacity` made and not yet taken, so a long sequence never holds more than
/// that many items at once.
///
/// The consumer wakes the worker only when the queue has drained to half its capacity, and the
/// worker wakes the consumer only when it is waiting, so a steady stream costs a few thread
/// switches per `capacity / 2` items rather than one per item.
///
/// Each item is made by one `make(position)` call on the worker and then belongs to whoever takes
/// it: the worker never touches an item after queueing it. `make` must only read state it shares
/// with the calling thread. The worker holds the object until it ends: call `stop` when done.
package final class AheadWorker<Item>: @unchecked Sendable {
    private let monitor = Monitor()
    private let count: Int
    private let capacity: Int
    private let make: (Int) -> Item
    /// A ring of made items: `filled` of them from `head`.
    private var ring: [Item?]
    private var head = 0
    private var filled = 0
    /// Positions made (queued) and taken so far.
    private var made = 0
    private var taken = 0
    private var stopped = false
    /// Whether the worker or the consumer is blocked waiting for the other.
    private var workerWaits = false
    private var consumerWaits = false
    private var thread: pthread_t?

    /// Starts the worker; nil when the system cannot start a thread (the caller then makes the
    /// items itself).
    package init?(count: Int, capacity: Int, make: @escaping (Int) -> Item) {
        self.count = count
        self.capacity = max(1, capacity)
        self.make = make
        ring = Array(repeating: nil, count: self.capacity)
        guard let thread = JoinableThread.start({ [self] in work() }) else { return nil }
        self.thread = thread
    }

    /// The next item in order, waiting for the worker to make it; nil once all `count` items
    /// were taken or after `stop`.
    package func next() -> Item? {
        monitor.lock()
        defer { monitor.unlock() }
        while filled == 0 && !stopped && taken < count {
            consumerWaits = true
            monitor.wait()
            consumerWaits = false
        }
        guard filled > 0, !stopped else { return nil }
        let item = ring[head]
        ring[head] = nil
        head = (head + 1) % capacity
        filled -= 1
        taken += 1
        if workerWaits && filled <= capacity / 2 { monitor.broadcast() }
        return item
    }

    /// Stops making items, drops those made and not taken, and waits for the worker to end (it
    /// finishes the item it is making first).
    package func stop() {
        monitor.locked {
            stopped = true
            monitor.broadcast()
        }
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        monitor.locked {
            ring = []
            filled = 0
        }
    }

    /// The worker's loop: make the next item outside the lock, queue it, repeat.
    private func work() {
        while true {
            monitor.lock()
            while !stopped && filled == capacity {
                workerWaits = true
                monitor.wait()
                workerWaits = false
            }
            guard !stopped, made < count else {
                monitor.unlock()
                return
            }
            let position = made
            monitor.unlock()
            let item = make(position)
            monitor.lock()
            if stopped {
                monitor.unlock()
                return
            }
            ring[(head + filled) % capacity] = item
            filled += 1
            made += 1
            if consumerWaits { monitor.broadcast() }
            monitor.unlock()
        }
    }
}
