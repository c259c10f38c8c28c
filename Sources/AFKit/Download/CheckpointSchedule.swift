/// When a download's next checkpoint is due.
///
/// A checkpoint waits for the disk twice (fdatasync of the data, fsync of the new state), and
/// each of those flushes the device's cache, which slows the writes going on meanwhile. The
/// first checkpoints come quickly, so even a short download that is killed keeps some of its
/// progress; the gaps then double up to `longestGap`, the most transfer time a crash can cost.
/// A slow disk stretches them further: the gap after a checkpoint is at least `spacing` times
/// what it took, so at most about 5% of the time goes to checkpoints.
struct CheckpointSchedule {
    /// The gap before the first checkpoint (seconds).
    static let firstGap = 0.2
    /// The longest gap between two checkpoints, unless the disk is slow (seconds).
    static let longestGap = 1.0
    /// The gap after a checkpoint is at least this many times what it took.
    static let spacing = 20.0

    /// When the next checkpoint is due (monotonic seconds, as `FileIO.monotonicSeconds`).
    private(set) var due: Double
    private var gap = firstGap

    /// A schedule whose first checkpoint is due `firstGap` after `now`.
    init(now: Double = FileIO.monotonicSeconds()) {
        due = now + Self.firstGap
    }

    /// Schedules the next checkpoint after one that ran from `started` to `finished` (or was
    /// skipped, with nothing new to record: then both are the same moment).
    mutating func checkpointed(started: Double, finished: Double) {
        gap = min(Self.longestGap, gap * 2)
        due = finished + max(gap, (finished - started) * Self.spacing)
    }
}
