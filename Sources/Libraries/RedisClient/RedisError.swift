import Glibc
import NIOCore
import NIOPosix
public import ServiceFailures

/// A failure talking to Redis, translated from hiredis at once (hiredis reuses its error buffer).
public struct RedisError: BackingServiceError, Sendable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case connect
        case io
        case timeout
        case server
        case protocolViolation
        case poolClosed
        case overloaded
        case unroutable
    }

    private let kind: Kind
    /// For a server error reply, its first word (`ERR`, `NOSCRIPT`, `WRONGTYPE`, or a script's own code); otherwise empty.
    public let code: String
    public let message: String

    private init(kind: Kind, code: String = "", message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    static func connect(_ message: String) -> RedisError { RedisError(kind: .connect, message: message) }
    static func io(_ message: String) -> RedisError { RedisError(kind: .io, message: message) }
    static func timeout(_ message: String) -> RedisError { RedisError(kind: .timeout, message: message) }
    static func protocolViolation(_ message: String) -> RedisError { RedisError(kind: .protocolViolation, message: message) }
    static func unroutable(_ message: String) -> RedisError { RedisError(kind: .unroutable, message: message) }
    static let poolClosed = RedisError(kind: .poolClosed, message: "the connection pool is closed")
    static let overloaded = RedisError(kind: .overloaded, message: "too many redis calls awaiting replies")

    /// An error reply from the server.
    public static func server(_ reply: String) -> RedisError {
        let code = reply.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        return RedisError(kind: .server, code: code, message: reply)
    }

    public var service: BackingService { .redis }

    /// Redis could not be reached, the connection broke, too many calls await it, or it refuses commands for now
    /// (`LOADING` its data after a restart, `BUSY` running a script past its time; on a cluster `CLUSTERDOWN` while a
    /// slot has no master, `TRYAGAIN` while a slot migrates): the caller should treat Redis as unavailable.
    public var isUnavailable: Bool {
        switch kind {
        case .connect, .io, .timeout, .poolClosed, .overloaded: true
        case .server: ["LOADING", "BUSY", "CLUSTERDOWN", "TRYAGAIN"].contains(code)
        case .protocolViolation, .unroutable: false
        }
    }

    /// The command never left: no connection could be opened, or the one it would have gone on was closed first. Only
    /// such a command may be sent again elsewhere; one that was sent may have run.
    var neverSent: Bool { kind == .connect || kind == .poolClosed }

    /// The server answered with an error reply.
    public var isServerError: Bool { kind == .server }

    public var description: String {
        switch kind {
        case .connect: "redis connect failed: \(message)"
        case .io: "redis connection failed: \(message)"
        case .timeout: "redis timed out: \(message)"
        case .server: "redis error: \(message)"
        case .protocolViolation: "redis protocol error: \(message)"
        case .unroutable: "redis cluster cannot route the command: \(message)"
        case .poolClosed, .overloaded: message
        }
    }
}

extension RedisError {
    /// What went wrong with the socket, in words an operator reads at a glance: "connection refused", not SwiftNIO's
    /// description of its connect attempts.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as NIOConnectionError:
            if let failure = error.connectionErrors.first { return reason(failure.error) }
            return (error.dnsAError ?? error.dnsAAAAError).map { "cannot resolve the host: \(reason($0))" } ?? "\(error)"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode)).lowercased()
        case ChannelError.connectTimeout:
            return "connect timed out"
        default:
            return "\(error)"
        }
    }
}
