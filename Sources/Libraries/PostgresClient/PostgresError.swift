public import ServiceFailures

/// A failure talking to PostgreSQL, translated from libpq at once (libpq reuses its error buffer).
///
/// `description` names the SQLSTATE and its class but never the server's message, which can quote SQL text
/// and parameter data; `message` and `debugDescription` carry the details for deliberate use.
public struct PostgresError: BackingServiceError, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private enum Kind: Sendable, Equatable {
        case connect
        case connection
        case server
        case transactionAborted
        case encoding
        case decoding
        case unexpectedResult
        case poolClosed
        case timedOut
        case overloaded
    }

    private let kind: Kind
    /// The SQLSTATE the server reported (`23505`, `40001` …); empty when the failure is not the server's.
    public let code: String
    /// The server's primary message, or the client's reason. It may quote data: keep it out of logs.
    public let message: String
    private let detail: String?
    private let hint: String?

    private init(kind: Kind, code: String = "", message: String, detail: String? = nil, hint: String? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.detail = detail
        self.hint = hint
    }

    static func connect(_ message: String) -> PostgresError { PostgresError(kind: .connect, message: message) }
    static func connection(_ message: String, code: String = "") -> PostgresError {
        PostgresError(kind: .connection, code: code, message: message)
    }
    static func server(code: String, message: String, detail: String?, hint: String?) -> PostgresError {
        PostgresError(kind: .server, code: code, message: message, detail: detail, hint: hint)
    }
    static func encoding(_ message: String) -> PostgresError { PostgresError(kind: .encoding, message: message) }
    static func decoding(_ message: String) -> PostgresError { PostgresError(kind: .decoding, message: message) }
    static func unexpectedResult(_ message: String) -> PostgresError { PostgresError(kind: .unexpectedResult, message: message) }
    static let transactionAborted = PostgresError(
        kind: .transactionAborted, message: "a statement of the transaction failed, so it was rolled back instead of committed")
    static let poolClosed = PostgresError(kind: .poolClosed, message: "the connection pool is closed")
    static let timedOut = PostgresError(kind: .timedOut, message: "no answer within the query timeout")
    static let overloaded = PostgresError(kind: .overloaded, message: "too many queries are waiting")

    /// A unique constraint refused the row (`23505`).
    public var isUniqueViolation: Bool { code == "23505" }

    /// A foreign key refused the row (`23503`).
    public var isForeignKeyViolation: Bool { code == "23503" }

    public var service: BackingService { .postgres }

    /// PostgreSQL could not be reached, the connection broke, no answer came in time, or too many queries wait: the
    /// caller should treat the database as unavailable.
    public var isUnavailable: Bool {
        switch kind {
        case .connect, .connection, .poolClosed, .timedOut, .overloaded: true
        // The server is shutting down or starting up.
        case .server: ["57P01", "57P02", "57P03"].contains(code)
        case .transactionAborted, .encoding, .decoding, .unexpectedResult: false
        }
    }

    /// The client gave up waiting for an answer (``PostgresConfiguration/queryTimeout``).
    public var isTimeout: Bool { kind == .timedOut }

    /// The server refused a statement; the connection remains usable.
    public var isServerError: Bool { kind == .server }

    /// What went wrong, broadly: the SQLSTATE's class for server errors (`integrity constraint violation`),
    /// otherwise the client-side stage that failed.
    public var category: String {
        switch kind {
        case .connect: "connect"
        case .connection: "connection"
        case .server: Self.sqlStateClasses[String(code.prefix(2))] ?? "SQLSTATE class \(code.prefix(2))"
        case .transactionAborted: "transaction aborted"
        case .encoding: "parameter encoding"
        case .decoding: "row decoding"
        case .unexpectedResult: "unexpected result"
        case .poolClosed: "pool closed"
        case .timedOut: "timeout"
        case .overloaded: "overload"
        }
    }

    public var description: String {
        switch kind {
        case .server: "postgres error \(code): \(category)"
        case .connect: "postgres connect failed: \(message)"
        case .connection: "postgres connection failed: \(message)"
        case .transactionAborted, .poolClosed, .timedOut, .overloaded: "postgres: \(message)"
        case .encoding, .decoding, .unexpectedResult: "postgres \(category) failed: \(message)"
        }
    }

    public var debugDescription: String {
        guard kind == .server else { return description }
        var text = "\(description): \(message)"
        if let detail { text += " (detail: \(detail))" }
        if let hint { text += " (hint: \(hint))" }
        return text
    }

    /// The classes of PostgreSQL's SQLSTATE codes (Appendix A of its manual).
    private static let sqlStateClasses: [String: String] = [
        "00": "successful completion", "01": "warning", "02": "no data", "03": "SQL statement not yet complete",
        "08": "connection exception", "09": "triggered action exception", "0A": "feature not supported",
        "0B": "invalid transaction initiation", "0F": "locator exception", "0L": "invalid grantor",
        "0P": "invalid role specification", "0Z": "diagnostics exception", "20": "case not found",
        "21": "cardinality violation", "22": "data exception", "23": "integrity constraint violation",
        "24": "invalid cursor state", "25": "invalid transaction state", "26": "invalid SQL statement name",
        "27": "triggered data change violation", "28": "invalid authorization specification",
        "2B": "dependent privilege descriptors still exist", "2D": "invalid transaction termination",
        "2F": "SQL routine exception", "34": "invalid cursor name", "38": "external routine exception",
        "39": "external routine invocation exception", "3B": "savepoint exception", "3D": "invalid catalog name",
        "3F": "invalid schema name", "40": "transaction rollback", "42": "syntax error or access rule violation",
        "44": "WITH CHECK OPTION violation", "53": "insufficient resources", "54": "program limit exceeded",
        "55": "object not in prerequisite state", "57": "operator intervention", "58": "system error",
        "72": "snapshot failure", "F0": "configuration file error", "HV": "foreign data wrapper error",
        "P0": "PL/pgSQL error", "XX": "internal error",
    ]
}
