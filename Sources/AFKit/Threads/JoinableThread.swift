import Glibc

/// Starts the POSIX threads afcli's workers run on (XML parsing, download writing and
/// writeback): joinable, with the default attributes, running one closure.
///
/// Workers block SIGINT and SIGTERM, so the signals always reach the main thread, whose blocking
/// calls (a read of standard input, libcurl's poll) they must interrupt.
enum JoinableThread {
    /// Starts a thread running `body`; nil when the system cannot start one.
    static func start(_ body: @escaping () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var interrupts = sigset_t()
        var previous = sigset_t()
        sigemptyset(&interrupts)
        sigaddset(&interrupts, SIGINT)
        sigaddset(&interrupts, SIGTERM)
        // A new thread starts with its creator's mask.
        pthread_sigmask(SIG_BLOCK, &interrupts, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// The closure, boxed to cross pthread_create's `void *`.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
