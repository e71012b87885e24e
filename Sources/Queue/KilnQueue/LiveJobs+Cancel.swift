import KilnCore

/// Cancelling every job a filter matches, walking the pages of ``LiveJobs``.
///
/// Pages go by position, and a cancelled job leaves its ready list, held set or the delays, so the entries after it
/// move up: a walk that cancels as it goes passes over as many entries as it removed before its cursor. Each walk
/// therefore starts again from the first page, and the cancelling ends with the first walk that cancelled nothing: that
/// walk removed no entry, so it read every one the filter reads and found no match left to cancel. Every walk cancels
/// about half of what still matches, or more, on a queue that no one adds to: a million matches take a dozen walks.
extension LiveJobs {
    /// What cancelling every match did.
    public struct Cancellation: Sendable, Equatable {
        /// Jobs that had not started (queued, held or waiting), now cancelled.
        public var cancelled: Int
        /// Running jobs whose workers were told to stop (within a second, at their next lease renewal).
        public var stopping: Int
        /// How many times the list was walked from its first page.
        public var walks: Int
        /// Whether the last walk found nothing left to cancel; false when the cancelling stopped at its walk limit
        /// with matches still coming (an app submitting as fast as they go).
        public var complete: Bool

        public init(cancelled: Int = 0, stopping: Int = 0, walks: Int = 0, complete: Bool = false) {
            self.cancelled = cancelled
            self.stopping = stopping
            self.walks = walks
            self.complete = complete
        }
    }

    /// The most walks one cancelling makes.
    public static let walkLimit = 32

    /// Cancels every job `filter` matches, reading `batch` matches at a time (a page: at most ``readLimit`` entries),
    /// each job by its own cancel script, as its owner's cancel does. Running jobs are asked to stop once each.
    /// - Parameter progress: called after each batch with what has been done so far.
    public func cancelAll(
        matching filter: Filter, batch: Int, walkLimit: Int = Self.walkLimit, progress: (Cancellation) -> Void = { _ in }
    ) async throws -> Cancellation {
        let queue = namespace.queue
        var done = Cancellation()
        // Running jobs stay in the leases until their workers stop: asked once, they are passed over after.
        var told = Set<JobID>()
        while done.walks < walkLimit {
            done.walks += 1
            var cancelledThisWalk = 0
            var cursor: Cursor?
            repeat {
                try Task.checkCancellation()
                let page = try await page(filter, after: cursor, limit: batch)
                for job in page.jobs where !told.contains(job.id) {
                    switch try await queue.cancel(job.id, tenant: job.tenant, identity: job.identity) {
                    case .cancelled: cancelledThisWalk += 1
                    case .requested: told.insert(job.id)
                    case .alreadyFinished, .notFound: break
                    }
                }
                cursor = page.next
                progress(Cancellation(cancelled: done.cancelled + cancelledThisWalk, stopping: told.count, walks: done.walks))
            } while cursor != nil
            done.cancelled += cancelledThisWalk
            done.stopping = told.count
            if cancelledThisWalk == 0 {
                done.complete = true
                break
            }
        }
        return done
    }
}
