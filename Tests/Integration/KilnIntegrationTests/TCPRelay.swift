import Foundation
import Glibc
import Locking

/// A TCP relay of the test's own: accepts connections in one network namespace and opens each onward from another,
/// passing the bytes both ways, on threads of its own (its reads and writes block). With an ``Impairment`` it passes
/// them late and cuts connections now and then: this kernel has no `netem` to do either.
final class TCPRelay: Sendable {
    struct Impairment: Sendable {
        /// How late each chunk arrives, in each direction, drawn for each chunk; chunks keep their order.
        var delay: ClosedRange<Duration>
        /// How often one of the open connections is cut (both its ends closed); nil never cuts any.
        var cutEvery: Duration?
    }

    private struct Connection {
        let accepted: Int32
        let onward: Int32
        /// Its four threads (a reader and a writer each way) that have not ended yet.
        var running = 4
    }

    private struct State {
        var connections: [Int: Connection] = [:]
        var nextID = 0
        var accepted = 0
        var cut = 0
        var stopped = false
    }

    /// The port it accepts connections on.
    let port: Int
    private let listener: Int32
    private let onward: (namespace: NetworkNamespace?, address: String, port: Int)
    private let impairment: Impairment?
    private let state = Locked(State())

    /// Accepts on `address:port` (0 picks a free port) in `namespace` (nil: the test's own), and connects each onward
    /// to `onwardAddress:onwardPort` from `onwardNamespace`.
    init(
        in namespace: NetworkNamespace?, address: String, port: Int = 0, to onwardNamespace: NetworkNamespace?, _ onwardAddress: String,
        _ onwardPort: Int, impairment: Impairment? = nil
    ) throws {
        let listener = try NetworkNamespace.tcpSocket(in: namespace)
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = Self.socketAddress(address, port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bound in
                bind(listener, bound, length) == 0 && listen(listener, 256) == 0 && getsockname(listener, bound, &length) == 0
            }
        }
        guard listening else {
            close(listener)
            throw TestFailure("the relay cannot listen on \(address):\(port) in \(namespace?.name ?? "the test's namespace"): errno \(errno)")
        }
        self.listener = listener
        self.port = Int(UInt16(bigEndian: socketAddress.sin_port))
        self.onward = (onwardNamespace, onwardAddress, onwardPort)
        self.impairment = impairment
        Thread { [self] in acceptConnections() }.start()
        if let every = impairment?.cutEvery { Thread { [self] in cutConnections(every: every) }.start() }
    }

    /// How many connections it accepted, and how many of them it cut.
    var counts: (accepted: Int, cut: Int) { state.withLock { ($0.accepted, $0.cut) } }

    /// Stops accepting and closes every connection; until then its threads keep it.
    func stop() {
        let wasStopped = state.withLock { state in
            defer { state.stopped = true }
            // Under the lock: a connection's sockets are closed only once it has left the list.
            if !state.stopped { state.connections.values.forEach(Self.shut) }
            return state.stopped
        }
        // The accepting thread then fails, and closes the socket.
        if !wasStopped { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private func acceptConnections() {
        while true {
            let accepted = accept(listener, nil, nil)
            guard accepted >= 0 else {
                if state.withLock({ $0.stopped }) {
                    close(listener)
                    return
                }
                // Interrupted, a connection reset before it was accepted, or out of descriptors for a moment.
                if errno != EINTR { Thread.sleep(forTimeInterval: 0.01) }
                continue
            }
            Thread { [self] in relay(accepted) }.start()
        }
    }

    private func relay(_ accepted: Int32) {
        guard let onwardSocket = connectOnward() else {
            close(accepted)
            return
        }
        Self.noDelay(accepted)
        Self.noDelay(onwardSocket)
        let connection = Connection(accepted: accepted, onward: onwardSocket)
        let id: Int? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.nextID += 1
            state.accepted += 1
            state.connections[state.nextID] = connection
            return state.nextID
        }
        guard let id else {
            close(accepted)
            close(onwardSocket)
            return
        }
        for (from, to) in [(accepted, onwardSocket), (onwardSocket, accepted)] {
            let line = DelayLine()
            Thread { [self] in
                read(from, into: line)
                ended(id)
            }.start()
            Thread { [self] in
                write(line, to: to)
                Self.shut(connection)
                ended(id)
            }.start()
        }
    }

    private func connectOnward() -> Int32? {
        guard let descriptor = try? NetworkNamespace.tcpSocket(in: onward.namespace) else { return nil }
        var address = Self.socketAddress(onward.address, onward.port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Reads until the end of the stream, handing each chunk to `line` with the time it is due at the other end.
    private func read(_ descriptor: Int32, into line: DelayLine) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var lastDue = ContinuousClock.now
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                line.append(nil, due: lastDue)
                return
            }
            let delay = impairment.map {
                Duration.microseconds(Int64.random(in: $0.delay.lowerBound.wholeMicroseconds...$0.delay.upperBound.wholeMicroseconds))
            }
            lastDue = max(lastDue, ContinuousClock.now + (delay ?? .zero))
            line.append(Array(buffer[0..<count]), due: lastDue)
        }
    }

    /// Writes what `line` hands over, each chunk once it is due, until the end of the stream or a failed write.
    private func write(_ line: DelayLine, to descriptor: Int32) {
        while let (chunk, due) = line.next() {
            let wait = due - ContinuousClock.now
            if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.wholeMicroseconds) / 1_000_000) }
            var written = 0
            while written < chunk.count {
                let count = chunk[written...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                written += count
            }
        }
    }

    private func ended(_ id: Int) {
        let finished: Connection? = state.withLock { state in
            state.connections[id]?.running -= 1
            guard let connection = state.connections[id], connection.running == 0 else { return nil }
            state.connections[id] = nil
            return connection
        }
        if let finished {
            close(finished.accepted)
            close(finished.onward)
        }
    }

    private func cutConnections(every interval: Duration) {
        while true {
            Thread.sleep(forTimeInterval: Double(interval.wholeMicroseconds) / 1_000_000)
            let stopped = state.withLock { state in
                guard !state.stopped else { return true }
                if let victim = state.connections.values.randomElement() {
                    Self.shut(victim)
                    state.cut += 1
                }
                return false
            }
            if stopped { return }
        }
    }

    /// Ends both streams of `connection`: its threads see the end, and the last of them closes the sockets.
    private static func shut(_ connection: Connection) {
        shutdown(connection.accepted, Int32(SHUT_RDWR))
        shutdown(connection.onward, Int32(SHUT_RDWR))
    }

    private static func noDelay(_ descriptor: Int32) {
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func socketAddress(_ address: String, _ port: Int) -> sockaddr_in {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        return socketAddress
    }
}

/// The chunks one direction of a relayed connection still has to write, each with the time it is due; nil ends it.
private final class DelayLine: Sendable {
    private let chunks = Locked<[(chunk: [UInt8]?, due: ContinuousClock.Instant)]>([])
    private let available = DispatchSemaphore(value: 0)

    func append(_ chunk: [UInt8]?, due: ContinuousClock.Instant) {
        chunks.withLock { $0.append((chunk, due)) }
        available.signal()
    }

    /// The next chunk, waiting for one; nil at the end of the stream.
    func next() -> (chunk: [UInt8], due: ContinuousClock.Instant)? {
        available.wait()
        let first = chunks.withLock { $0.removeFirst() }
        return first.chunk.map { ($0, first.due) }
    }
}

extension Duration {
    fileprivate var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
