internal import CHiredis
public import ConnectionPooling

/// One blocking connection to Redis, owning its hiredis context.
///
/// Used by one caller at a time (the pool hands it out), always on a thread of its own, never on Swift's
/// cooperative pool. After an I/O error the connection is broken for good and the pool drops it.
/// `@unchecked Sendable`: it is handed between threads by the pool, but only ever used by the one caller
/// that holds it, so its context is never touched concurrently.
public final class RedisConnection: PooledConnection, @unchecked Sendable {
    private var context: UnsafeMutablePointer<redisContext>?
    private let configuration: RedisConfiguration
    /// The read timeout now in force, in milliseconds, so blocking commands can change it and put it back.
    private var currentTimeoutMilliseconds: Int

    /// Connects, authenticates and selects the database.
    public init(configuration: RedisConfiguration) throws {
        self.configuration = configuration
        self.currentTimeoutMilliseconds = configuration.commandTimeout.wholeMilliseconds
        guard let context = chiredis_connect(configuration.host, Int32(configuration.port), configuration.connectTimeout.wholeMilliseconds) else {
            throw RedisError.connect("cannot allocate a connection")
        }
        self.context = context
        if context.pointee.err != 0 {
            let message = Self.errorText(context)
            close()
            throw RedisError.connect("\(configuration.host):\(configuration.port): \(message)")
        }
        try applyTimeout(milliseconds: currentTimeoutMilliseconds)
        if let password = configuration.password {
            // The password is never part of an error: only the reply's first word is kept.
            do {
                _ = try send(["AUTH", password])
            } catch let error as RedisError {
                close()
                throw RedisError.connect("authentication failed (\(error.code))")
            }
        }
        if configuration.database != 0 {
            _ = try send(["SELECT", String(configuration.database)])
        }
    }

    deinit { close() }

    /// False once an I/O error (or `close()`) has made this connection unusable.
    public var isReusable: Bool { context != nil }

    /// Frees the context; idempotent.
    public func close() {
        if let context {
            redisFree(context)
            self.context = nil
        }
    }

    /// Sends one command and waits for its reply; an error reply is thrown as a server ``RedisError``.
    @discardableResult
    public func send(_ arguments: [String]) throws -> RedisValue {
        try send(arguments.map { Array($0.utf8) })
    }

    /// Sends one binary-safe command and waits for its reply.
    @discardableResult
    public func send(_ arguments: [[UInt8]]) throws -> RedisValue {
        try append(arguments)
        let reply = try readReply()
        if case .error(let message) = reply { throw RedisError.server(message) }
        return reply
    }

    /// Sends every command before reading any reply: one round trip. Error replies come back as `.error` values.
    public func pipeline(_ commands: [[String]]) throws -> [RedisValue] {
        for command in commands { try append(command.map { Array($0.utf8) }) }
        return try commands.map { _ in try readReply() }
    }

    /// Runs a blocking command (BLPOP, XREAD BLOCK …) with a read timeout a little longer than its own.
    public func sendBlocking(_ arguments: [String], blockFor timeout: Duration) throws -> RedisValue {
        let previous = currentTimeoutMilliseconds
        try applyTimeout(milliseconds: timeout.wholeMilliseconds + configuration.commandTimeout.wholeMilliseconds)
        defer { try? applyTimeout(milliseconds: previous) }
        return try send(arguments)
    }

    private func applyTimeout(milliseconds: Int) throws {
        guard let context else { throw RedisError.io("connection closed") }
        guard chiredis_set_timeout(context, milliseconds) == chiredis_ok() else {
            throw fail(context)
        }
        currentTimeoutMilliseconds = milliseconds
    }

    private func append(_ arguments: [[UInt8]]) throws {
        guard let context else { throw RedisError.io("connection closed") }
        guard arguments.first?.isEmpty == false else { throw RedisError.protocolViolation("a command needs a name") }
        // All arguments live in one buffer; argv points into it and is used before the buffer goes away.
        var buffer: [UInt8] = []
        buffer.reserveCapacity(arguments.reduce(0) { $0 + $1.count })
        var offsets: [Int] = []
        var lengths: [Int] = []
        offsets.reserveCapacity(arguments.count)
        lengths.reserveCapacity(arguments.count)
        for argument in arguments {
            offsets.append(buffer.count)
            lengths.append(argument.count)
            buffer.append(contentsOf: argument)
        }
        let status: Int32 = buffer.withUnsafeBufferPointer { bytes in
            // The command name is not empty, so the buffer has a base address.
            guard let start = bytes.baseAddress else { return -1 }
            let base = UnsafeRawPointer(start)
            var argv = offsets.map { Optional(base.advanced(by: $0).assumingMemoryBound(to: CChar.self)) }
            return argv.withUnsafeMutableBufferPointer { argvPointer in
                lengths.withUnsafeBufferPointer { lengthPointer in
                    argvPointer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { rebound in
                        redisAppendCommandArgv(context, Int32(arguments.count), rebound.baseAddress, lengthPointer.baseAddress)
                    }
                }
            }
        }
        guard status == chiredis_ok() else { throw fail(context) }
    }

    private func readReply() throws -> RedisValue {
        guard let context else { throw RedisError.io("connection closed") }
        var reply: UnsafeMutablePointer<redisReply>?
        guard chiredis_get_reply(context, &reply) == chiredis_ok(), let reply else {
            throw fail(context)
        }
        defer { freeReplyObject(reply) }
        return Self.value(of: reply)
    }

    private static func value(of reply: UnsafeMutablePointer<redisReply>) -> RedisValue {
        let node = reply.pointee
        switch node.type {
        case chiredis_reply_string():
            return .bulk(bytes(node.str, node.len))
        case chiredis_reply_status():
            return .status(String(decoding: bytes(node.str, node.len), as: UTF8.self))
        case chiredis_reply_error():
            return .error(String(decoding: bytes(node.str, node.len), as: UTF8.self))
        case chiredis_reply_integer():
            return .integer(node.integer)
        case chiredis_reply_array():
            guard let elements = node.element else { return .array([]) }
            return .array(
                (0..<node.elements).map { index in
                    elements[index].map { value(of: $0) } ?? .null
                })
        default:
            return .null
        }
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> [UInt8] {
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Reads the context's error before the next call overwrites it, then drops the connection.
    private func fail(_ context: UnsafeMutablePointer<redisContext>) -> RedisError {
        let message = Self.errorText(context)
        let timedOut = message.localizedStandardContainsTimeout
        close()
        return timedOut ? RedisError.timeout(message) : RedisError.io(message)
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            let bytes = raw.prefix(while: { $0 != 0 })
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension String {
    /// hiredis reports a read timeout as EAGAIN's text.
    fileprivate var localizedStandardContainsTimeout: Bool {
        contains("temporarily unavailable") || contains("timed out")
    }
}
