/// One reply from Redis (RESP2).
public enum RedisValue: Sendable, Hashable {
    case bulk([UInt8])
    case status(String)
    case integer(Int64)
    case null
    case array([RedisValue])
    /// An error reply inside a pipeline or array; a top-level error reply is thrown as ``RedisError`` instead.
    case error(String)

    /// The text of a bulk or status reply, or the digits of an integer.
    public var string: String? {
        switch self {
        case .bulk(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let text): text
        case .integer(let value): String(value)
        case .null, .array, .error: nil
        }
    }

    /// An integer reply, or a bulk reply that holds an integer.
    public var int: Int64? {
        switch self {
        case .integer(let value): value
        case .bulk, .status: string.flatMap { Int64($0) }
        case .null, .array, .error: nil
        }
    }

    public var array: [RedisValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// An error reply's message as a server ``RedisError``; nil for any other reply.
    public var serverError: RedisError? {
        if case .error(let message) = self { return .server(message) }
        return nil
    }

    /// The reply itself; an error reply is thrown as a server ``RedisError``.
    public func checked() throws -> RedisValue {
        if let serverError { throw serverError }
        return self
    }
}
