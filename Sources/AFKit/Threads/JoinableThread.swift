import Glibc

/// Starts the POSIX threads afcli's workers run on (XML parsing, download writing and
/// writeback, `DeepStack`'s work): joinable, with the default attributes or a stack size of the
/// caller's, running one closure.
///
/// Workers block SIGINT and SIGTERM, so the signals always reach the main thread, whose blocking
/// calls (a read of standard input, libcurl's poll) they must interrupt.
enum JoinableThread {
    /// Starts a thread running `body`, with a stack of `stackSize` bytes when given (else the
    /// system's default, which follows `ulimit -s`); nil when the system cannot start one.
    static func start(stackSize: Int? = nil, _ body: @escaping () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var interrupts = sigset_t()
        var previous = sigset_t()
        sigemptyset(&interrupts)
        sigaddset(&interrupts, SIGINT)
        sigaddset(&interrupts, SIGTERM)
        // A new thread starts with its creator's mask.
        pthread_sigmask(SIG_BLOCK, &interrupts, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize, pthread_attr_setstacksize(&attributes, stackSize) != 0 { return nil }
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
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
