/// How a wait for network activity begins: polling for a moment without sleeping, while recent
/// waits say the answer is about to come.
///
/// A thread that sleeps in poll(2) and is woken by the answer pays for the wake-up: the CPU it
/// slept on went idle, and on a virtual machine an idle CPU halts, so waking it costs tens of
/// microseconds, longer than a server on the same host takes to answer. A wait that first polls
/// without sleeping for up to `limit` catches an answer that arrives meanwhile at no such cost.
/// When it does not, the next waits sleep at once: 1 after the first miss, then 2, 4… up to 64
/// after misses in a row, so a slow or distant server costs one 50 µs spin in 65 waits, and a
/// catch resets the count.
package struct SpinWait {
    /// How long a wait polls before it sleeps, in seconds.
    package static let limit = 0.000_05
    /// The most waits that sleep at once after misses in a row.
    package static let longestBackoff = 64

    /// Waits left that sleep at once.
    private var skipping = 0
    /// How many waits the next miss makes sleep at once.
    private var backoff = 1

    package init() {}

    /// Whether the wait about to start should poll without sleeping first.
    package mutating func spins() -> Bool {
        guard skipping == 0 else {
            skipping -= 1
            return false
        }
        return true
    }

    /// The spin caught activity: the next wait spins again.
    package mutating func caught() {
        backoff = 1
    }

    /// The spin ended without activity: the next `backoff` waits sleep at once.
    package mutating func missed() {
        skipping = backoff
        backoff = min(backoff * 2, Self.longestBackoff)
    }

    /// Polls with `pollOnce` (true when something is ready) until it reports activity or the
    /// limit passes; true when it did. Records the catch or the miss.
    package mutating func spin(_ pollOnce: () -> Bool) -> Bool {
        let deadline = TransferContext.now() + Self.limit
        repeat {
            if pollOnce() {
                caught()
                return true
            }
        } while TransferContext.now() < deadline
        missed()
        return false
    }
}
