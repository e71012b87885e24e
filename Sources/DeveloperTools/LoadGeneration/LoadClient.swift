import EventPolling
import Foundation
import Glibc
import Locking

/// HTTP/1.1 for load generators: keep-alive connections to one server, one request on each at a time, all driven by
/// one thread's epoll loop. A request is one `send(2)` and its answer most often one `read(2)`, and the answer is
/// handed over on the loop thread, where the caller may send its next request at once. The generators share the
/// machine's cores with the server they measure, so a request must cost them little: libcurl's multi interface makes
/// several system calls a request and costs a generator more CPU than the bare Hummingbird server spends answering it.
///
/// Plain `http://` only, answers with a `Content-Length` only (every answer of Kiln's and the floor server's). An
/// answer that does not come within the timeout, or a connection the server closes before answering, fails that
/// request and closes its connection; the next request there opens a new one. Nothing is sent twice.
///
/// `@unchecked Sendable` because of that confinement: the connections, the queue of requests waiting for one, and the
/// timers are touched only by the loop thread; other threads reach it through `inbox`, and wake it through the
/// poller's eventfd only while it waits, always with the inbox locked and before `stopRequested` (the loop closes the
/// poller only after it has seen that flag under the same lock).
public final class LoadClient: @unchecked Sendable {
    /// Receives a request's answer, on the loop thread: it must not block, and may send more requests.
    public typealias Answer = @Sendable (Result<LoadResponse, LoadClientError>) -> Void

    private struct Queued {
        let request: LoadRequest
        let timeout: Duration
        let answer: Answer
    }

    private struct Inbox {
        var queued: [Queued] = []
        var stopRequested = false
        /// The loop waits on its sockets, or is about to: only then does a new request need a wakeup.
        var loopIsWaiting = false
    }

    /// The `Host` header's value, and the path every request's is appended to (the URL's own).
    public let host: String
    private let basePath: String
    private let address: sockaddr_in
    private let timeout: Duration
    private let poller: Poller
    private let inbox = Locked(Inbox())
    private let stopped = NSCondition()
    private var isStopped = false
    private let connections: [LoadConnection]
    private var connectionsByDescriptor: [Int32: LoadConnection] = [:]
    private var idle: [LoadConnection]
    private var waiting: [Queued] = []
    private var waitingStart = 0
    private var scratch = [UInt8](repeating: 0, count: 65_536)

    /// A client of the server at `url` (`http://host:port[/path]`), with up to `connections` open at once; a request's
    /// answer may take up to `timeout` once it is sent, unless the request says otherwise.
    public init(url: String, connections: Int, timeout: Duration = .seconds(30)) throws(LoadClientError) {
        guard let parsed = URL(string: url), parsed.scheme == "http", let hostName = parsed.host, connections > 0 else {
            throw LoadClientError("\(url) is not an http:// URL (this client speaks plain HTTP/1.1 only)")
        }
        let port = parsed.port ?? 80
        host = parsed.port.map { "\(hostName):\($0)" } ?? hostName
        basePath = parsed.path.hasSuffix("/") ? String(parsed.path.dropLast()) : parsed.path
        address = try Self.resolve(hostName, port: port)
        self.timeout = timeout
        do {
            poller = try Poller()
        } catch {
            throw LoadClientError(error.description)
        }
        self.connections = (0..<connections).map { _ in LoadConnection() }
        idle = self.connections.reversed()
        Thread { self.run() }.start()
    }

    /// A request for `path` under the URL's path, with a `Content-Length` body.
    public func request(_ method: String, _ path: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) -> LoadRequest {
        LoadRequest(method: method, path: basePath + path, host: host, headers: headers, body: body)
    }

    /// Sends `request` on the first free connection (in order, once one frees up) and hands its answer, or why none
    /// came within `timeout` (the client's when nil), to `answer`.
    public func send(_ request: LoadRequest, timeout: Duration? = nil, answer: @escaping Answer) {
        let accepted = inbox.withLock { inbox in
            guard !inbox.stopRequested else { return false }
            inbox.queued.append(Queued(request: request, timeout: timeout ?? self.timeout, answer: answer))
            if inbox.loopIsWaiting {
                inbox.loopIsWaiting = false
                poller.wake()
            }
            return true
        }
        if !accepted { answer(.failure(LoadClientError("the client is shut down"))) }
    }

    /// Sends `request` and waits for its answer.
    public func send(_ request: LoadRequest, timeout: Duration? = nil) async throws(LoadClientError) -> LoadResponse {
        try await withCheckedContinuation { continuation in send(request, timeout: timeout) { continuation.resume(returning: $0) } }.get()
    }

    /// Fails what is outstanding, closes the connections and ends the loop thread. Not from an ``Answer``.
    public func shutdown() {
        inbox.withLock { inbox in
            guard !inbox.stopRequested else { return }
            inbox.stopRequested = true
            poller.wake()
        }
        stopped.lock()
        while !isStopped { stopped.wait() }
        stopped.unlock()
    }

    // MARK: The loop thread

    private func run() {
        while true {
            let (queued, stop) = inbox.withLock { inbox in
                defer { inbox.queued = [] }
                return (inbox.queued, inbox.stopRequested)
            }
            if stop { break }
            waiting += queued
            dispatch()
            let mayWait = inbox.withLock { inbox in
                inbox.loopIsWaiting = inbox.queued.isEmpty && !inbox.stopRequested
                return inbox.loopIsWaiting
            }
            // Outstanding requests are checked for their deadline at least every 100 ms.
            let events = poller.wait(milliseconds: mayWait ? 100 : 0)
            if mayWait { inbox.withLock { $0.loopIsWaiting = false } }
            for event in events {
                guard let connection = connectionsByDescriptor[event.descriptor] else { continue }
                handle(event, on: connection)
            }
            expire()
        }
        let failure = LoadClientError("the client is shut down")
        for connection in connections { close(connection, failing: failure) }
        for queued in waiting[waitingStart...] { queued.answer(.failure(failure)) }
        poller.close()
        stopped.lock()
        isStopped = true
        stopped.broadcast()
        stopped.unlock()
    }

    /// Hands waiting requests to idle connections, oldest first.
    private func dispatch() {
        while waitingStart < waiting.count, let connection = idle.popLast() {
            let queued = waiting[waitingStart]
            waitingStart += 1
            start(queued, on: connection)
        }
        if waitingStart == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingStart = 0
        }
    }

    private func start(_ queued: Queued, on connection: LoadConnection) {
        connection.outstanding = LoadConnection.Outstanding(answer: queued.answer, timeout: queued.timeout, deadline: .now + queued.timeout)
        connection.unsent = queued.request.bytes[...]
        if connection.descriptor < 0 {
            do {
                try open(connection)
            } catch {
                return close(connection, failing: error)
            }
        }
        if !connection.isConnecting { write(connection) }
    }

    private func open(_ connection: LoadConnection) throws(LoadClientError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .call("socket", errno: errno) }
        var noDelay: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = self.address
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 || errno == EINPROGRESS else {
            let code = errno
            Glibc.close(descriptor)
            throw .call("connect", errno: code)
        }
        connection.descriptor = descriptor
        connection.isConnecting = connected != 0
        connection.watchesWrites = connection.isConnecting
        connectionsByDescriptor[descriptor] = connection
        poller.watch(descriptor, reading: true, writing: connection.watchesWrites)
    }

    private func handle(_ event: Poller.Event, on connection: LoadConnection) {
        if connection.isConnecting {
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(connection.descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
            guard code == 0 else { return close(connection, failing: .call("connect", errno: code)) }
            guard event.isWritable else { return }
            connection.isConnecting = false
        }
        if event.isWritable { write(connection) }
        if event.isReadable || event.isFailed { read(connection) }
    }

    private func write(_ connection: LoadConnection) {
        if !connection.unsent.isEmpty {
            let written = connection.unsent.withUnsafeBytes { Glibc.send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                guard errno == EAGAIN else { return close(connection, failing: .call("send", errno: errno)) }
            } else {
                connection.unsent = connection.unsent.dropFirst(written)
            }
        }
        let wantsWrites = !connection.unsent.isEmpty
        if wantsWrites != connection.watchesWrites {
            connection.watchesWrites = wantsWrites
            poller.watch(connection.descriptor, reading: true, writing: wantsWrites)
        }
    }

    private func read(_ connection: LoadConnection) {
        let count = scratch.withUnsafeMutableBytes { Glibc.read(connection.descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EAGAIN { return }
            return close(connection, failing: .call("read", errno: errno))
        }
        guard count > 0 else { return close(connection, failing: LoadClientError("the server closed the connection before answering")) }
        scratch.withUnsafeBytes { connection.receive(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        do {
            while let (response, closes) = try connection.takeResponse() {
                guard let outstanding = connection.outstanding else {
                    return close(connection, failing: LoadClientError("the server answered a request not sent"))
                }
                connection.outstanding = nil
                if closes { closeSocket(of: connection) }
                idle.append(connection)
                outstanding.answer(.success(response))
            }
        } catch {
            close(connection, failing: error)
        }
    }

    /// Fails the requests whose answer is late, closing their connections: an answer may still be on its way.
    private func expire() {
        let now = ContinuousClock.now
        for connection in connections {
            guard let outstanding = connection.outstanding, outstanding.deadline <= now else { continue }
            close(connection, failing: LoadClientError("no answer within \(outstanding.timeout)"))
        }
    }

    /// Closes the connection's socket and fails its outstanding request with `failure`; the connection is idle after.
    private func close(_ connection: LoadConnection, failing failure: LoadClientError) {
        closeSocket(of: connection)
        guard let outstanding = connection.outstanding else { return }
        connection.outstanding = nil
        idle.append(connection)
        outstanding.answer(.failure(failure))
    }

    private func closeSocket(of connection: LoadConnection) {
        guard connection.descriptor >= 0 else { return }
        poller.unwatch(connection.descriptor)
        connectionsByDescriptor[connection.descriptor] = nil
        Glibc.close(connection.descriptor)
        connection.reset()
    }

    /// The IPv4 address of `host`.
    private static func resolve(_ host: String, port: Int) throws(LoadClientError) -> sockaddr_in {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found, let address = first.pointee.ai_addr else {
            throw LoadClientError("cannot resolve \(host) to an IPv4 address")
        }
        defer { freeaddrinfo(found) }
        return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
    }
}
