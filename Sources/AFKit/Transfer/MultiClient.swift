import AFCurl

/// Sends many prepared requests at once over one libcurl multi handle, on the calling thread.
///
/// Each request is an `HTTPExchange`, as with `HTTPClient`: the same transfer options, the same
/// delegate events and the same redirect rules. A redirect's next hop is queued as a new transfer
/// on the easy handle the previous hop ended on. Connections live in the multi handle's cache, so
/// they are reused by every later transfer to the same origin, and HTTP/2 requests to one origin
/// share a connection as streams. The cookie engine is not used (`ClientOptions.cookies` is
/// ignored): requests of a batch do not share cookies.
package final class MultiClient {
    /// One exchange that ended.
    package struct Finished {
        /// The tag given to `start`.
        package let tag: Int
        /// The exchange's result (its final outcome's metrics carry the queue time), or its error
        /// (a transport `CurlError`, an `HTTPClientError`, or the delegate's own error).
        package let result: Result<HTTPClientResult, any Error>
    }

    /// An exchange in flight.
    private struct Running {
        let tag: Int
        let exchange: HTTPExchange
        /// Seconds the request waited before its first transfer was handed to libcurl.
        let queue: Double
    }

    /// The multi handle every transfer runs on.
    private let multi: MultiHandle
    /// Easy handles that finished a transfer, kept for the next one.
    private var idle: [EasyHandle] = []
    /// The exchanges in flight, by the easy handle their current hop runs on.
    private var running: [ObjectIdentifier: Running] = [:]
    /// The header lines of the last transfer, shared by the next one with the same fields.
    private let headerLines = HeaderLinesMemo()

    /// Creates a client that opens at most `maxConnections` connections at once (0: no limit).
    package init(maxConnections: Int = 0) throws {
        multi = try MultiHandle(maxConnections: maxConnections)
    }

    /// The number of exchanges started and not yet finished.
    package var inFlight: Int { running.count }

    /// Starts sending `request`, streaming its hops to `delegate`. `readyAt` (monotonic seconds,
    /// `FileIO.monotonicSeconds`) is when the request was ready to go: the time from then until
    /// its first transfer is handed to libcurl is recorded as `TransferMetrics.queue`. Throws when
    /// the first transfer cannot be set up; nothing is then in flight for `tag`.
    package func start(
        _ request: PreparedRequest, options: ClientOptions, delegate: HTTPClientDelegate, tag: Int, readyAt: Double
    ) throws {
        let exchange = HTTPExchange(request, options: options, delegate: delegate, headerLines: headerLines)
        let (transfer, events) = try exchange.nextTransfer()
        let handle = try idle.popLast() ?? EasyHandle()
        let queue = max(0, FileIO.monotonicSeconds() - readyAt)
        do {
            try multi.add(handle, request: transfer, events: events)
        } catch {
            idle.append(handle)
            // Reports the failed hop to the delegate as a single request would, then rethrows.
            _ = try exchange.hopEnded(.failure(error))
            throw error
        }
        running[ObjectIdentifier(handle)] = Running(tag: tag, exchange: exchange, queue: queue)
    }

    /// Runs the transfers for up to `timeoutMilliseconds` (less when one ends) and returns the
    /// exchanges that ended, in the order their last transfers ended.
    package func wait(timeoutMilliseconds: Int) throws -> [Finished] {
        finish(try multi.perform(timeoutMilliseconds: timeoutMilliseconds))
    }

    /// Runs what can run now, without waiting (new requests go out), and returns the exchanges
    /// that ended.
    package func run() throws -> [Finished] {
        finish(try multi.run())
    }

    /// Waits up to `timeoutMilliseconds` for activity on any transfer; `run` then handles it.
    package func poll(timeoutMilliseconds: Int) throws {
        try multi.poll(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Concludes the hops that ended; the exchanges that are over, in order.
    private func finish(_ completions: [MultiHandle.Completion]) -> [Finished] {
        var finished: [Finished] = []
        finished.reserveCapacity(completions.count)
        for completion in completions {
            let key = ObjectIdentifier(completion.handle)
            guard let entry = running.removeValue(forKey: key) else { continue }
            if let result = conclude(entry, handle: completion.handle, result: completion.result) {
                finished.append(Finished(tag: entry.tag, result: result))
            }
            if running[key] == nil { idle.append(completion.handle) }
        }
        return finished
    }

    /// Stops every transfer in flight and returns their tags; their exchanges end without results.
    @discardableResult
    package func cancelAll() -> [Int] {
        let tags = running.values.map(\.tag)
        multi.cancelAll()
        running.removeAll()
        return tags
    }

    /// Ends one hop of `entry`: the exchange's result when it is over, nil when its next hop was
    /// queued on `handle`.
    private func conclude(
        _ entry: Running, handle: EasyHandle, result: TransferResult
    ) -> Result<HTTPClientResult, any Error>? {
        do {
            if var final = try entry.exchange.hopEnded(result) {
                final.outcome.metrics.queue = entry.queue
                return .success(final)
            }
            let (transfer, events) = try entry.exchange.nextTransfer()
            do {
                try multi.add(handle, request: transfer, events: events)
            } catch {
                _ = try entry.exchange.hopEnded(.failure(error))
                throw error
            }
            running[ObjectIdentifier(handle)] = entry
            return nil
        } catch var error as CurlError where error.metrics != nil {
            // A transfer that failed in libcurl keeps its times up to the failure, with the queue.
            error.metrics?.queue = entry.queue
            return .failure(error)
        } catch {
            return .failure(error)
        }
    }
}
