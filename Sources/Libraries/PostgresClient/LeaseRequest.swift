/// A caller waiting for a connection of its own (a transaction), until `deadline`.
///
/// `@unchecked Sendable` as ``QueryRequest``: made by the caller, then only ever used by the loop thread.
final class LeaseRequest: @unchecked Sendable {
    let deadline: ContinuousClock.Instant
    private let continuation: CheckedContinuation<Int, any Error>
    private let pending: PendingCount

    init(deadline: ContinuousClock.Instant, pending: PendingCount, continuation: CheckedContinuation<Int, any Error>) {
        self.deadline = deadline
        self.pending = pending
        self.continuation = continuation
    }

    /// Hands over the connection numbered `connection`. Its place in the count ends here: the statements sent on
    /// the lease take places of their own.
    func grant(_ connection: Int) {
        pending.release()
        continuation.resume(returning: connection)
    }

    func fail(_ error: PostgresError) {
        pending.release()
        continuation.resume(throwing: error)
    }
}
