internal import CCurl
import Dispatch
import EventPolling
import Foundation
import Locking

/// Owns the libcurl multi handle and the thread that drives it.
///
/// The loop thread waits on the sockets libcurl asks it to watch (a ``Poller``: epoll, level-triggered), hands the
/// ready ones and libcurl's timer to `curl_multi_socket_action`, reads finished transfers with
/// `curl_multi_info_read`, and is the only thread that touches the multi handle, the easy handles and the
/// transfers inside them. Handing libcurl only the ready sockets makes a turn cost what happened, not how many
/// transfers are open: `curl_multi_perform` and `curl_multi_poll` walk every transfer and every socket on each
/// turn, which with a thousand streams open takes most of a core. Other threads hand over new transfers, cancellations and
/// calls to run on the loop through `inbox`, and wake the thread through the poller's eventfd when it is waiting.
///
/// `@unchecked Sendable` is safe because of that confinement and two locks. `multi`, `active`,
/// `idleHandles` and the timer are used only inside `run()` and the callbacks libcurl makes from it; the
/// poller's ``Poller/wake()`` is called only with the inbox locked and `stopRequested` still false,
/// and `run()` closes the poller only after it has seen `stopRequested` under the same lock, so a wakeup never
/// reaches a closed descriptor. `isStopped` is guarded by `stoppedCondition`.
final class TransferLoop: @unchecked Sendable {
    private struct Inbox {
        var submissions: [Transfer] = []
        var cancellations: [Transfer] = []
        /// Work to run on the loop thread, such as a completion whose request never became a transfer.
        var calls: [@Sendable () -> Void] = []
        /// Whether a wakeup has been sent that the loop has not yet answered by draining the inbox.
        var wakeupPending = false
        var stopRequested = false
        /// The loop is waiting on its sockets, or about to: only then does new work need a wakeup. While it runs, it
        /// looks at the inbox before it waits again (a transfer's completion handing over the next request, as the
        /// load test's lanes do, costs no eventfd write and read).
        var loopIsWaiting = false

        var hasWork: Bool { !submissions.isEmpty || !cancellations.isEmpty || !calls.isEmpty || stopRequested }
    }

    /// Easy handles kept for reuse; beyond this many idle ones, finished handles are freed.
    private static let maxIdleHandles = 256
    /// libcurl's process-wide setup, run once before the first multi handle exists.
    private static let globalInitResult = curl_global_init(Int(CURL_GLOBAL_ALL))

    private let multi: UnsafeMutableRawPointer
    private let sockets: Poller
    /// When libcurl wants `curl_multi_socket_action` called for its timeouts (monotonic nanoseconds), as its
    /// timer callback last said; `nil` when it wants no call.
    private var curlTimerDeadline: UInt64?
    private let connectTimeoutMilliseconds: Int
    private let inbox = Locked(Inbox())
    /// Guards `isStopped`, which turns true once `run()` has freed everything.
    private let stoppedCondition = NSCondition()
    private var isStopped = false
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    /// How many active transfers have a first-byte or idle timeout; when none do, the loop skips the check.
    private var watchedCount = 0
    /// No watched transfer falls due before this (monotonic nanoseconds): bytes only ever push a deadline later, so
    /// the loop scans the transfers only once this has passed or a new transfer may have come due sooner.
    private var earliestDeadline: UInt64 = 0
    private var idleHandles: [EasyHandle] = []

    init(configuration: HTTPClientConfiguration) throws(HTTPClientError) {
        guard Self.globalInitResult == CURLE_OK else {
            throw .curl(Self.globalInitResult, message: "curl_global_init failed")
        }
        guard let multi = curl_multi_init() else {
            throw HTTPClientError(kind: .transport, message: "curl_multi_init failed")
        }
        ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        do {
            self.sockets = try Poller()
        } catch {
            curl_multi_cleanup(multi)
            throw HTTPClientError(kind: .transport, message: error.description)
        }
        self.multi = multi
        self.connectTimeoutMilliseconds = configuration.connectTimeout.curlMilliseconds
        // Safe: libcurl calls these only from inside curl_multi_socket_action, curl_multi_add_handle and
        // curl_multi_remove_handle on the loop thread, and the loop outlives its multi handle.
        let context = Unmanaged.passUnretained(self).toOpaque()
        ccurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        ccurl_multi_setopt_socket_function(multi) { _, socket, what, context, _ in
            guard let context else { return 0 }
            Unmanaged<TransferLoop>.fromOpaque(context).takeUnretainedValue().watch(socket, what: what)
            return 0
        }
        ccurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
        ccurl_multi_setopt_timer_function(multi) { _, milliseconds, context in
            guard let context else { return 0 }
            let loop = Unmanaged<TransferLoop>.fromOpaque(context).takeUnretainedValue()
            loop.curlTimerDeadline = milliseconds < 0 ? nil : DispatchTime.now().uptimeNanoseconds &+ UInt64(milliseconds) * 1_000_000
            return 0
        }
    }

    // MARK: Any thread

    /// Queues `transfer` for the loop; after a stop it fails at once with ``HTTPClientError/shutdown``.
    func submit(_ transfer: Transfer) {
        if !self.hand({ $0.submissions.append(transfer) }) {
            transfer.complete(with: .shutdown)
        }
    }

    /// Runs `call` on the loop thread at its next turn; after a stop, at once on the calling thread, as the loop is gone.
    func run(_ call: @escaping @Sendable () -> Void) {
        if !self.hand({ $0.calls.append(call) }) {
            call()
        }
    }

    /// Asks the loop to end `transfer` with ``HTTPClientError/cancelled``, whether or not it has been
    /// submitted yet; a transfer that already finished is left alone.
    func cancel(_ transfer: Transfer) {
        transfer.cancelRequested.withLock { $0 = true }
        _ = self.hand { $0.cancellations.append(transfer) }
    }

    /// Puts work in the inbox with `add` and wakes the loop; false, with nothing added, once a stop was requested.
    private func hand(_ add: (inout Inbox) -> Void) -> Bool {
        self.inbox.withLock { inbox in
            guard !inbox.stopRequested else { return false }
            add(&inbox)
            self.wakeUp(&inbox)
            return true
        }
    }

    /// Asks the loop to fail every transfer with ``HTTPClientError/shutdown``, free everything and end.
    func requestStop() {
        self.inbox.withLock { inbox in
            guard !inbox.stopRequested else { return }
            self.wakeUp(&inbox)
            inbox.stopRequested = true
        }
    }

    /// Blocks until `run()` has returned.
    func waitUntilStopped() {
        self.stoppedCondition.lock()
        defer { self.stoppedCondition.unlock() }
        while !self.isStopped {
            self.stoppedCondition.wait()
        }
    }

    /// One wakeup per drain is enough: the loop takes everything queued when it drains. A loop that is not waiting
    /// needs none.
    private func wakeUp(_ inbox: inout Inbox) {
        guard inbox.loopIsWaiting, !inbox.wakeupPending else { return }
        inbox.wakeupPending = true
        self.sockets.wake()
    }

    // MARK: Loop thread

    /// Watches `socket` for reading and/or writing, as libcurl's `CURL_POLL_*` value `what` says, or stops
    /// watching it (`CURL_POLL_REMOVE`).
    private func watch(_ socket: Int32, what: Int32) {
        if what == 4 {
            self.sockets.unwatch(socket)
        } else {
            self.sockets.watch(socket, reading: what & 1 != 0, writing: what & 2 != 0)
        }
    }

    /// The body of the loop thread.
    func run() {
        var submissions: [Transfer] = []
        var cancellations: [Transfer] = []
        var calls: [@Sendable () -> Void] = []
        while true {
            // Swapping keeps the arrays' storage, so draining allocates nothing.
            let stopRequested = self.inbox.withLock { inbox in
                swap(&submissions, &inbox.submissions)
                swap(&cancellations, &inbox.cancellations)
                swap(&calls, &inbox.calls)
                inbox.wakeupPending = false
                return inbox.stopRequested
            }
            if stopRequested { break }
            for transfer in submissions {
                self.start(transfer)
            }
            for transfer in cancellations {
                self.finish(transfer, error: .cancelled)
            }
            for call in calls {
                call()
            }
            submissions.removeAll(keepingCapacity: true)
            cancellations.removeAll(keepingCapacity: true)
            calls.removeAll(keepingCapacity: true)

            self.fireCurlTimerIfDue()
            self.collectCompletions()
            var waitMilliseconds = min(self.expireSilentTransfers(), self.millisecondsUntilCurlTimer())
            // Work handed over since the drain (by this thread too) is taken without waiting; otherwise the wait
            // returns early on socket activity or a wakeup.
            self.inbox.withLock { inbox in
                if inbox.hasWork { waitMilliseconds = 0 } else { inbox.loopIsWaiting = true }
            }
            let ready = self.sockets.wait(milliseconds: waitMilliseconds)
            self.inbox.withLock { $0.loopIsWaiting = false }
            var running: Int32 = 0
            for ready in ready {
                // libcurl's CURL_CSELECT_IN, _OUT and _ERR.
                let flags = (ready.isReadable ? 1 : 0) | (ready.isWritable ? 2 : 0) | (ready.isFailed ? 4 : 0)
                curl_multi_socket_action(self.multi, ready.descriptor, Int32(flags), &running)
            }
            self.collectCompletions()
        }
        self.close(failing: submissions, running: calls)
    }

    private func fireCurlTimerIfDue() {
        guard let deadline = self.curlTimerDeadline, DispatchTime.now().uptimeNanoseconds >= deadline else { return }
        self.curlTimerDeadline = nil
        var running: Int32 = 0
        ccurl_multi_socket_timeout(self.multi, &running)
    }

    private func millisecondsUntilCurlTimer() -> Int32 {
        guard let deadline = self.curlTimerDeadline else { return 1000 }
        let now = DispatchTime.now().uptimeNanoseconds
        return deadline <= now ? 0 : min(1000, Self.milliseconds(until: deadline, from: now))
    }

    private func start(_ transfer: Transfer) {
        if transfer.cancelRequested.withLock({ $0 }) {
            transfer.complete(with: .cancelled)
            return
        }
        let easy: EasyHandle
        do throws(HTTPClientError) {
            if let idle = self.idleHandles.popLast() {
                easy = idle
            } else {
                easy = try EasyHandle()
            }
            try easy.configure(for: transfer, connectTimeoutMilliseconds: self.connectTimeoutMilliseconds)
        } catch {
            transfer.complete(with: error)
            return
        }
        let code = curl_multi_add_handle(self.multi, easy.raw)
        guard code == CURLM_OK else {
            self.recycle(easy)
            transfer.complete(with: HTTPClientError(kind: .transport, message: String(cString: curl_multi_strerror(code))))
            return
        }
        transfer.easy = easy
        transfer.markStarted(at: DispatchTime.now().uptimeNanoseconds)
        self.active[easy.raw] = transfer
        if let soonest = transfer.soonestActivityDeadline {
            self.watchedCount += 1
            self.earliestDeadline = min(self.earliestDeadline, soonest)
        }
    }

    /// Ends the transfers whose first byte or next byte is overdue, and returns how long the loop may poll
    /// before the next one falls due (at most a second).
    private func expireSilentTransfers() -> Int32 {
        guard self.watchedCount > 0 else { return 1000 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now >= self.earliestDeadline else { return Self.milliseconds(until: self.earliestDeadline, from: now) }
        var nextDeadline = now &+ 1_000_000_000
        var expired: [(Transfer, HTTPClientError)] = []
        for transfer in self.active.values {
            guard let (deadline, error) = transfer.activityDeadline() else { continue }
            if deadline <= now {
                expired.append((transfer, error))
            } else {
                nextDeadline = min(nextDeadline, deadline)
            }
        }
        for (transfer, error) in expired {
            self.finish(transfer, error: error)
        }
        self.earliestDeadline = nextDeadline
        return Self.milliseconds(until: nextDeadline, from: now)
    }

    /// Rounded up, so the poll does not wake a hair before the deadline and spin.
    private static func milliseconds(until deadline: UInt64, from now: UInt64) -> Int32 {
        Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }

    private func collectCompletions() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(self.multi, &queued) {
            // The message dies with curl_multi_remove_handle, so copy what is needed first.
            guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                let transfer = self.active[raw], let easy = transfer.easy
            else { continue }
            let code = message.pointee.data.result
            self.finish(transfer, error: code == CURLE_OK ? nil : easy.error(for: code))
        }
    }

    /// Takes `transfer` out of the multi handle, if it is still there, and delivers its result.
    private func finish(_ transfer: Transfer, error: HTTPClientError?) {
        guard let easy = transfer.easy else { return }
        curl_multi_remove_handle(self.multi, easy.raw)
        transfer.easy = nil
        self.active[easy.raw] = nil
        if transfer.hasActivityTimeouts {
            self.watchedCount -= 1
        }
        self.recycle(easy)
        transfer.complete(with: error)
    }

    private func recycle(_ easy: EasyHandle) {
        easy.reset()
        if self.idleHandles.count < Self.maxIdleHandles {
            self.idleHandles.append(easy)
        }
    }

    /// Fails everything still queued or running, runs the calls still queued, then frees the easy handles and the multi
    /// handle (which closes the cached connections). `submissions` and `calls` are the final drain: nothing is queued
    /// after a stop.
    private func close(failing submissions: [Transfer], running calls: [@Sendable () -> Void]) {
        for transfer in submissions {
            transfer.complete(with: .shutdown)
        }
        for call in calls {
            call()
        }
        for transfer in Array(self.active.values) {
            self.finish(transfer, error: .shutdown)
        }
        self.idleHandles.removeAll()
        curl_multi_cleanup(self.multi)
        self.sockets.close()
        self.stoppedCondition.lock()
        self.isStopped = true
        self.stoppedCondition.broadcast()
        self.stoppedCondition.unlock()
    }
}
