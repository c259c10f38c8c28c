import Glibc

/// Runs work that recurses once per nesting level of a response body (the JSON parser and the
/// values it builds, the key sorter, the JSONPath evaluator, the property-list decoder and
/// writers) on a stack sized for the nesting it may meet, so that no `--max-depth` up to
/// `FormattingLimits.hardMaximumDepth` runs off the end of the caller's stack, whichever thread
/// that is and whatever `ulimit -s` says.
///
/// Up to the default limit the work runs where it is called, as it always did: the main
/// thread's 8 MiB hold 512 levels of the deepest path with room to spare. Deeper, it runs on a
/// thread of its own with `bytesPerLevel` a level, and the caller waits for it.
package enum DeepStack {
    /// The most levels run on the caller's stack.
    static let callerLevels = FormattingLimits.maximumDepth
    /// Stack bytes per level: the deepest path, a binary property list decoded and written out,
    /// takes about 6.3 KiB a level in the debug build (less in the release build);
    /// `MaximumDepthTests` and the black-box tests run each path at the hard maximum.
    static let bytesPerLevel = 12 * 1024
    /// Stack bytes for what the work needs besides its levels.
    static let baseBytes = 1 << 20

    /// The result of `body`, run on a stack that holds `levels` levels of nesting.
    package static func run<Value, Failure: Error>(
        levels: Int, _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        guard levels > callerLevels else { return try body() }
        var result: Result<Value, Failure>?
        withoutActuallyEscaping(body) { body in
            let work = { result = Result { () throws(Failure) -> Value in try body() } }
            let size = baseBytes + min(levels, FormattingLimits.hardMaximumDepth) * bytesPerLevel
            if let thread = JoinableThread.start(stackSize: size, work) {
                pthread_join(thread, nil)
            } else {
                // No thread to be had (the process's limit): the caller's own stack, as before.
                work()
            }
        }
        return try result!.get()
    }
}
