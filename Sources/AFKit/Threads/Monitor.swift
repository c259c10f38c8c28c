import Glibc

/// A mutex with one condition variable (on the monotonic clock), for the worker threads
/// (XML parsing, download writeback and writing) and the threads that hand them work.
final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the mutex.
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal; the mutex must be held.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal or until `deadline` (monotonic seconds, as `FileIO.monotonicSeconds`);
    /// the mutex must be held.
    func wait(until deadline: Double) {
        var time = timespec()
        time.tv_sec = Int(deadline)
        time.tv_nsec = Int((deadline - Double(time.tv_sec)) * 1_000_000_000)
        pthread_cond_timedwait(condition, mutex, &time)
    }

    /// Wakes one waiting thread.
    func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    func broadcast() { pthread_cond_broadcast(condition) }
}
