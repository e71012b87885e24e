import Dispatch
import EventPolling
import Foundation
import Glibc
import KilnProviders
import Locking

/// Thousands of clients following jobs' event streams over HTTP/1.1, all driven by one thread's epoll loop: a follower
/// costs the benchmark a socket and a parser, so ten thousand of them leave the cores to the API node they measure.
/// Each delta's latency is taken on the loop thread as its bytes are read, from the time its producer wrote into it
/// (`"t"`, monotonic nanoseconds of this process).
///
/// `@unchecked Sendable`: the followers are touched only by the loop thread until ``finish()`` has joined it.
final class SSEFollowers: @unchecked Sendable {
    /// What one follower saw.
    struct Record: Sendable {
        /// The response's status, once its head came.
        var status: Int?
        /// When its head came (monotonic nanoseconds).
        var openedAt: UInt64?
        /// Each delta's number and latency, in the order they came.
        var deltas: [(number: Int, latency: UInt64)] = []
        /// Its job's final status came.
        var finished = false
        /// The connection failed or the server closed it before the final status.
        var broken = false
    }

    private let address: sockaddr_in
    private let requests: [[UInt8]]
    private let poller: Poller
    private var connections: [Int32: Connection] = [:]
    private var records: [Record]
    private let stopRequested = Locked(false)
    private let opened = Locked(0)
    private let ended = Locked(0)
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    /// - Parameter requests: each follower's path and headers (`Name: value` lines).
    init(port: Int, requests: [(path: String, headers: [String])]) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        self.address = address
        self.requests = requests.map { request in
            Array(("GET \(request.path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + request.headers.map { $0 + "\r\n" }.joined() + "\r\n").utf8)
        }
        records = Array(repeating: Record(), count: requests.count)
        poller = try Poller()
    }

    /// Opens the connections, a few hundred at a time so the server's listen backlog keeps up, and follows until
    /// ``finish()``.
    func start() {
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// How many followers have had their response's head, and how many have ended (their job's final status, or a
    /// broken connection).
    var progress: (opened: Int, ended: Int) { (opened.withLock { $0 }, ended.withLock { $0 }) }

    /// Stops the loop, closes what is still open, and returns what each follower saw.
    func finish() async -> [Record] {
        stopRequested.withLock { $0 = true }
        poller.wake()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.done.wait()
                continuation.resume()
            }
        }
        return records
    }

    private func run() {
        var next = 0
        while !stopRequested.withLock({ $0 }) {
            // Up to 200 new connections a turn, while fewer than 400 wait to connect.
            var connecting = connections.values.filter { $0.phase == .connecting }.count
            while next < requests.count, connecting < 400 {
                open(next)
                next += 1
                connecting += 1
            }
            for event in poller.wait(milliseconds: next < requests.count ? 5 : 100) {
                guard let connection = connections[event.descriptor] else { continue }
                if event.isWritable { write(connection) }
                if event.isReadable || event.isFailed { read(connection) }
            }
        }
        for descriptor in connections.keys { close(descriptor) }
        poller.close()
    }

    private func open(_ index: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else {
            fail(index)
            return
        }
        var address = self.address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 || errno == EINPROGRESS else {
            close(descriptor)
            fail(index)
            return
        }
        connections[descriptor] = Connection(index: index, descriptor: descriptor, unsent: requests[index][...])
        poller.watch(descriptor, reading: true, writing: true)
    }

    private func write(_ connection: Connection) {
        connection.phase = .head
        let written = connection.unsent.withUnsafeBytes { send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written >= 0 else {
            if errno != EAGAIN { drop(connection) }
            return
        }
        connection.unsent = connection.unsent.dropFirst(written)
        if connection.unsent.isEmpty { poller.watch(connection.descriptor, reading: true, writing: false) }
    }

    private var buffer = [UInt8](repeating: 0, count: 65_536)

    private func read(_ connection: Connection) {
        while true {
            let count = recv(connection.descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                let now = DispatchTime.now().uptimeNanoseconds
                let wasOpen = records[connection.index].status != nil
                buffer.withUnsafeBytes {
                    connection.receive(UnsafeRawBufferPointer(rebasing: $0[0..<count]), at: now, into: &records[connection.index])
                }
                if !wasOpen, records[connection.index].status != nil { opened.withLock { $0 += 1 } }
                if records[connection.index].finished {
                    close(connection.descriptor)
                    connections[connection.descriptor] = nil
                    ended.withLock { $0 += 1 }
                    return
                }
                continue
            }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            drop(connection)
            return
        }
    }

    private func drop(_ connection: Connection) {
        close(connection.descriptor)
        connections[connection.descriptor] = nil
        fail(connection.index)
    }

    private func fail(_ index: Int) {
        records[index].broken = true
        ended.withLock { $0 += 1 }
    }

    /// One follower's connection: its request until written, then its response's head and chunked body.
    private final class Connection {
        enum Phase { case connecting, head, body }
        enum Chunk {
            case size([UInt8])
            case data(Int)
            case ending(Int)
        }

        let index: Int
        let descriptor: Int32
        var unsent: ArraySlice<UInt8>
        var phase = Phase.connecting
        private var head: [UInt8] = []
        private var chunk = Chunk.size([])
        private var parser = ServerSentEventParser()

        init(index: Int, descriptor: Int32, unsent: ArraySlice<UInt8>) {
            self.index = index
            self.descriptor = descriptor
            self.unsent = unsent
        }

        func receive(_ bytes: UnsafeRawBufferPointer, at now: UInt64, into record: inout Record) {
            if phase != .body {
                head += bytes
                guard let end = Self.headEnd(head) else { return }
                let status = String(decoding: head.prefix(12), as: UTF8.self).split(separator: " ").dropFirst().first.flatMap { Int($0) }
                record.status = status ?? 0
                record.openedAt = now
                phase = .body
                let body = Array(head[end...])
                head = []
                body.withUnsafeBytes { dechunk($0[...], at: now, into: &record) }
                return
            }
            dechunk(bytes[...], at: now, into: &record)
        }

        private static func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 3..<bytes.count
            where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
                return index + 1
            }
            return nil
        }

        private func dechunk(_ bytes: Slice<UnsafeRawBufferPointer>, at now: UInt64, into record: inout Record) {
            var index = bytes.startIndex
            while index < bytes.endIndex {
                switch chunk {
                case .size(var line):
                    let byte = bytes[index]
                    index += 1
                    guard byte == 10 else {
                        if byte != 13 { line.append(byte) }
                        chunk = .size(line)
                        continue
                    }
                    let size = Int(String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self), radix: 16) ?? 0
                    chunk = size == 0 ? .ending(2) : .data(size)
                case .data(let remaining):
                    let take = min(remaining, bytes.endIndex - index)
                    for event in parser.parse(bytes[index..<(index + take)]) { Self.note(event, at: now, into: &record) }
                    index += take
                    chunk = remaining == take ? .ending(2) : .data(remaining - take)
                case .ending(let remaining):
                    index += 1
                    chunk = remaining == 1 ? .size([]) : .ending(remaining - 1)
                }
            }
        }

        private static func note(_ event: ServerSentEvent, at now: UInt64, into record: inout Record) {
            switch event.event {
            case "delta":
                guard let number = field("n", in: event.data), let sent = field("t", in: event.data) else { return }
                record.deltas.append((number, now &- UInt64(sent)))
            case "status" where event.data.contains(#""state":"succeeded""#):
                record.finished = true
            default:
                break
            }
        }

        /// An integer member of a flat JSON object, without parsing the rest of it.
        private static func field(_ name: String, in json: String) -> Int? {
            guard let start = json.range(of: "\"\(name)\":")?.upperBound else { return nil }
            return Int(json[start...].prefix { $0.isNumber })
        }
    }
}
