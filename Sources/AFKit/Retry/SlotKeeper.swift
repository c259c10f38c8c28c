/// What lets a runner's other requests use the slot of an exchange that waits for its next try.
///
/// Under `--parallel N`, a run sends at most N requests at once. An exchange that `RetryingEngine`
/// holds back until its next try is due sends nothing meanwhile: it asks the keeper to give its
/// slot to the next request, and to take one again before the try is sent (which waits while
/// every slot is taken). Tags are the runner's: `ExchangeOrder.tag`.
package protocol SlotKeeper: AnyObject {
    /// Exchange `tag` waits for its next try: true when its slot went to other requests (it must
    /// then be resumed before it is sent again), false when it keeps it.
    func rest(_ tag: Int) -> Bool
    /// Whether exchange `tag`, resting since `rest`, may be sent now: true once it took a slot
    /// again, false while every slot is taken.
    func resume(_ tag: Int) -> Bool
}
