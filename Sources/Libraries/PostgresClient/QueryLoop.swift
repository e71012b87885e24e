import EventPolling
import Foundation
import NIOCore
import ServiceFailures
import Locking

/// The thread that drives one pool's connections: a level-triggered epoll loop (``Poller``) over libpq's sockets,
/// plus an eventfd through which callers hand over work.
///
/// Callers' queries wait in one queue and go out on the pipelined connections, the least loaded first: every
/// query submitted since the last turn is sent in that turn, and answered in order as results arrive. A leased
/// connection (a transaction) is one caller's, but the same loop sends its statements. Connections open on first
/// use; after a failed connect the loop waits before the next attempt (50 ms, doubling up to
/// ``PostgresConfiguration/maxReconnectDelay``), and calls made meanwhile with no connection open fail at once as
/// unavailable, as do calls beyond ``PostgresConfiguration/maxPendingQueries``.
///
/// `@unchecked Sendable`: callers touch only `inbox` (under its lock), `pending` (atomic) and the poller's
/// ``Poller/wake()``, which is called only with the inbox locked and `stopRequested` still false; `run()` closes
/// the poller only after it has seen `stopRequested` under the same lock. Everything else, the connections and
/// their `PGconn`s included, is used by the loop thread alone.
final class QueryLoop: @unchecked Sendable {
    private enum Submission {
        case query(QueryRequest)
        case leasedQuery(QueryRequest, connection: Int)
        case lease(LeaseRequest)
        case release(connection: Int)
    }

    private struct Inbox {
        var submissions: [Submission] = []
        /// Whether a wakeup has been sent that the loop has not yet answered by draining the inbox.
        var wakeupPending = false
        var stopRequested = false
        var isStopped = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The last failed connect, and when the next may be tried.
    private struct Outage {
        var error: PostgresError
        var failures: Int
        var retryAt: ContinuousClock.Instant
    }

    /// Statements in flight on every open pipelined connection before the loop opens another.
    private static let busyLoad = 8

    private let configuration: PostgresConfiguration
    private let pending: PendingCount
    private let registry: SocketRegistry
    private let inbox = Locked(Inbox())

    // The loop thread's alone.
    private var pipelined: [ServerConnection?]
    private var queue = CircularBuffer<QueryRequest>()
    /// Leased connections, open or opening, idle or held, by id.
    private var leased: [Int: ServerConnection] = [:]
    private var idleLeased: [Int] = []
    /// The lease each opening leased connection is for.
    private var opening: [Int: LeaseRequest] = [:]
    private var leaseWaiters = CircularBuffer<LeaseRequest>()
    private var outage: Outage?
    private var nextConnectionID = 0

    init(configuration: PostgresConfiguration) throws(PostgresError) {
        self.configuration = configuration
        self.pending = PendingCount(limit: configuration.maxPendingQueries)
        self.pipelined = Array(repeating: nil, count: max(1, configuration.pipelinedConnections))
        do {
            self.registry = SocketRegistry(poller: try Poller())
        } catch {
            throw PostgresError.connection("cannot start the query loop: \(error)")
        }
    }

    // MARK: Any thread

    /// Runs `statement` on the pipelined connections, or on the leased connection numbered `connection`.
    func perform(_ statement: QueryRequest.Statement, on connection: Int? = nil) async throws -> PostgresRows {
        guard pending.reserve() else { throw PostgresError.overloaded }
        let deadline = ContinuousClock.now + configuration.queryTimeout
        return try await withCheckedThrowingContinuation { continuation in
            let request = QueryRequest(statement, deadline: deadline, answer: .caller(continuation, pending))
            let submission: Submission = connection.map { .leasedQuery(request, connection: $0) } ?? .query(request)
            if !submit(submission) {
                request.fail(.poolClosed)
            }
        }
    }

    /// Waits for a connection of the caller's own and returns its number; give it back with ``release(_:)``.
    func lease() async throws -> Int {
        guard pending.reserve() else { throw PostgresError.overloaded }
        let deadline = ContinuousClock.now + configuration.queryTimeout
        return try await withCheckedThrowingContinuation { continuation in
            let request = LeaseRequest(deadline: deadline, pending: pending, continuation: continuation)
            if !submit(.lease(request)) {
                request.fail(.poolClosed)
            }
        }
    }

    /// Gives a leased connection back: it serves the next lease if it is open and outside any transaction.
    func release(_ connection: Int) {
        _ = submit(.release(connection: connection))
    }

    /// Fails everything queued or in flight with ``PostgresError/poolClosed``, closes the connections and ends the
    /// thread; returns once it has ended.
    func stop() async {
        await withCheckedContinuation { continuation in
            let stopped = inbox.withLock { inbox in
                guard !inbox.isStopped else { return true }
                inbox.stopWaiters.append(continuation)
                requestStop(&inbox)
                return false
            }
            if stopped { continuation.resume() }
        }
    }

    /// Asks the loop to stop, without waiting for it.
    func requestStop() {
        inbox.withLock { requestStop(&$0) }
    }

    private func requestStop(_ inbox: inout Inbox) {
        guard !inbox.stopRequested else { return }
        wakeUp(&inbox)
        inbox.stopRequested = true
    }

    private func submit(_ submission: Submission) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopRequested else { return false }
            inbox.submissions.append(submission)
            wakeUp(&inbox)
            return true
        }
    }

    /// One wakeup per drain is enough: the loop takes everything queued when it drains.
    private func wakeUp(_ inbox: inout Inbox) {
        guard !inbox.wakeupPending else { return }
        inbox.wakeupPending = true
        registry.poller.wake()
    }

    // MARK: Loop thread

    /// The body of the loop thread.
    func run() {
        var submissions: [Submission] = []
        while true {
            // Swapping keeps the array's storage, so draining allocates nothing.
            let stopRequested = inbox.withLock { inbox in
                swap(&submissions, &inbox.submissions)
                inbox.wakeupPending = false
                return inbox.stopRequested
            }
            if stopRequested { break }
            for submission in submissions {
                accept(submission)
            }
            submissions.removeAll(keepingCapacity: true)
            dispatch()
            let timeout = flushAndExpire(at: .now)
            for event in registry.poller.wait(milliseconds: timeout) {
                guard let connection = registry.owner(of: event.descriptor) else { continue }
                apply(connection.handle(event), to: connection)
            }
        }
        shutDown(failing: submissions)
    }

    /// Calls `body` on every open connection; `body` may close connections, since the collections are iterated
    /// as they were when the call began.
    private func forEachConnection(_ body: (ServerConnection) -> Void) {
        for case let connection? in pipelined { body(connection) }
        for connection in leased.values { body(connection) }
    }

    private func accept(_ submission: Submission) {
        switch submission {
        case .query(let request):
            if pipelined.allSatisfy({ $0 == nil }), let outage, ContinuousClock.now < outage.retryAt {
                request.fail(outage.error)
            } else {
                queue.append(request)
            }
        case .leasedQuery(let request, let id):
            guard let connection = leased[id] else {
                request.fail(.connection("connection closed"))
                return
            }
            apply(connection.send(request), to: connection)
        case .lease(let request):
            grantOrQueue(request)
        case .release(let id):
            guard let connection = leased[id] else { return }
            if connection.isReusable {
                if let waiter = leaseWaiters.popFirst() {
                    waiter.grant(id)
                } else if let slot = pipelined.firstIndex(where: { $0 == nil }) {
                    // Back to the pipeline it may have come from, so a quiet pool keeps one connection.
                    leased[id] = nil
                    connection.role = .pipelined
                    pipelined[slot] = connection
                } else {
                    idleLeased.append(id)
                }
            } else {
                // Broken, or left inside a transaction: never hand that to the next caller.
                connection.close(failing: .connection("connection closed"))
                leased[id] = nil
                serveLeaseWaiters()
            }
        }
    }

    /// Sends the queued queries on the pipelined connections that are ready, the least loaded first. The first
    /// connection opens on first use, another only once every open one has ``busyLoad`` statements in flight, so a
    /// quiet pool holds one connection (a server's `max_connections` is shared by every process's pools).
    private func dispatch() {
        guard !queue.isEmpty else { return }
        var ready = pipelined.compactMap { $0 }.filter { $0.state == .ready }
        let isOpening = pipelined.contains { $0 != nil && $0?.state != .ready }
        let inBackoff = outage.map { ContinuousClock.now < $0.retryAt } ?? false
        if !isOpening, ready.allSatisfy({ $0.load >= Self.busyLoad }), let slot = pipelined.firstIndex(where: { $0 == nil }) {
            if let id = takeIdleLeased(), let connection = leased.removeValue(forKey: id) {
                connection.role = .pipelined
                pipelined[slot] = connection
            } else if !inBackoff {
                let connection = ServerConnection(id: newConnectionID(), role: .pipelined, configuration: configuration, registry: registry)
                pipelined[slot] = connection
                apply(connection.start(), to: connection)
            }
            ready = pipelined.compactMap { $0 }.filter { $0.state == .ready }
        }
        while !ready.isEmpty, let request = queue.popFirst() {
            guard let connection = ready.min(by: { $0.load < $1.load }) else { break }
            apply(connection.send(request), to: connection)
            if connection.state != .ready {
                ready.removeAll { $0 === connection }
            }
        }
        if !queue.isEmpty, pipelined.allSatisfy({ $0 == nil }) {
            failQueue(outage?.error ?? .connection("no connection to PostgreSQL"))
        }
    }

    /// Grants a lease an idle leased connection, or else a pipelined one with nothing in flight (so a quiet pool
    /// needs one connection for both), or else a new connection while there is room; otherwise it waits.
    private func grantOrQueue(_ request: LeaseRequest) {
        if let id = takeIdleLeased() {
            request.grant(id)
            return
        }
        guard leased.count < max(1, configuration.leasedConnections) else {
            leaseWaiters.append(request)
            return
        }
        if let slot = pipelined.firstIndex(where: { $0?.isReusable == true }), let connection = pipelined[slot] {
            pipelined[slot] = nil
            connection.role = .leased
            leased[connection.id] = connection
            request.grant(connection.id)
            return
        }
        if let outage, ContinuousClock.now < outage.retryAt {
            request.fail(outage.error)
            return
        }
        let connection = ServerConnection(id: newConnectionID(), role: .leased, configuration: configuration, registry: registry)
        leased[connection.id] = connection
        opening[connection.id] = request
        apply(connection.start(), to: connection)
    }

    /// An idle leased connection that is still usable, by id; closes the ones that are not.
    private func takeIdleLeased() -> Int? {
        while let id = idleLeased.popLast() {
            guard let connection = leased[id] else { continue }
            if connection.isReusable { return id }
            connection.close(failing: .connection("connection closed"))
            leased[id] = nil
        }
        return nil
    }

    /// Opens connections for waiting leases while there is room.
    private func serveLeaseWaiters() {
        while leased.count < max(1, configuration.leasedConnections), let waiter = leaseWaiters.popFirst() {
            grantOrQueue(waiter)
        }
    }

    private func apply(_ change: ServerConnection.Change, to connection: ServerConnection) {
        switch change {
        case .none:
            break
        case .becameReady:
            outage = nil
            if let lease = opening.removeValue(forKey: connection.id) {
                lease.grant(connection.id)
            }
        case .failedToConnect(let error):
            let failures = (outage?.failures ?? 0) + 1
            let delay = ReconnectBackoff(maximum: configuration.maxReconnectDelay).delay(afterFailures: failures)
            outage = Outage(error: error, failures: failures, retryAt: .now + delay)
            forget(connection)
            opening.removeValue(forKey: connection.id)?.fail(error)
            if pipelined.allSatisfy({ $0 == nil }) {
                failQueue(error)
            }
            serveLeaseWaiters()
        case .closed:
            forget(connection)
        }
    }

    /// Drops a closed connection: a pipelined slot reopens when next needed; a held leased connection stays
    /// counted until its caller releases it.
    private func forget(_ connection: ServerConnection) {
        switch connection.role {
        case .pipelined:
            if let slot = pipelined.firstIndex(where: { $0 === connection }) {
                pipelined[slot] = nil
            }
        case .leased:
            if let index = idleLeased.firstIndex(of: connection.id) {
                idleLeased.remove(at: index)
                leased[connection.id] = nil
                serveLeaseWaiters()
            } else if opening[connection.id] != nil {
                leased[connection.id] = nil
            }
        }
    }

    private func failQueue(_ error: PostgresError) {
        while let request = queue.popFirst() { request.fail(error) }
    }

    /// Sends what this turn's statements left buffered (one flush per connection per turn), fails what is overdue,
    /// and returns how long the poll may wait: until the next deadline, at most a second.
    private func flushAndExpire(at now: ContinuousClock.Instant) -> Int32 {
        while let oldest = queue.first, oldest.deadline <= now {
            _ = queue.popFirst()
            oldest.fail(.timedOut)
        }
        while let oldest = leaseWaiters.first, oldest.deadline <= now {
            _ = leaseWaiters.popFirst()
            oldest.fail(.timedOut)
        }
        var next = now + .seconds(1)
        forEachConnection { connection in
            apply(connection.flush(), to: connection)
            apply(connection.expire(at: now), to: connection)
            if let deadline = connection.nextDeadline { next = min(next, deadline) }
        }
        if let deadline = queue.first?.deadline { next = min(next, deadline) }
        if let deadline = leaseWaiters.first?.deadline { next = min(next, deadline) }
        // Queued calls waiting out a reconnect delay: dispatch opens connections again once it has passed.
        if !queue.isEmpty, let outage, outage.retryAt > now { next = min(next, outage.retryAt) }
        return Self.milliseconds(from: now, to: next)
    }

    /// Rounded up, so the poll does not wake a hair before the deadline and spin.
    private static func milliseconds(from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant) -> Int32 {
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now).roundedUpMilliseconds)
    }

    private func newConnectionID() -> Int {
        nextConnectionID += 1
        return nextConnectionID
    }

    /// Fails everything still queued or running, closes the connections and the poller, then wakes `stop()`'s
    /// callers. `submissions` is the final drain: nothing is queued after a stop.
    private func shutDown(failing submissions: [Submission]) {
        for submission in submissions {
            switch submission {
            case .query(let request), .leasedQuery(let request, _): request.fail(.poolClosed)
            case .lease(let request): request.fail(.poolClosed)
            case .release: break
            }
        }
        failQueue(.poolClosed)
        while let waiter = leaseWaiters.popFirst() { waiter.fail(.poolClosed) }
        for lease in opening.values { lease.fail(.poolClosed) }
        opening = [:]
        forEachConnection { $0.close(failing: .poolClosed) }
        pipelined = pipelined.map { _ in nil }
        leased = [:]
        idleLeased = []
        registry.poller.close()
        let waiters = inbox.withLock { inbox in
            inbox.isStopped = true
            defer { inbox.stopWaiters = [] }
            return inbox.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
