public import ServiceFailures

/// A store refused a request or found its data not as written, or the object store could not be reached.
///
/// PostgreSQL's failures are not wrapped (they arrive as `PostgresError`), so the only backing service a store error
/// speaks for is the object store: ``Code/unavailable`` is its outage.
public struct StoreError: BackingServiceError, Sendable, CustomStringConvertible {
    /// What went wrong, for callers to match: `error.code == .alreadyExists`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case alreadyExists = "already exists"
            case notFound = "not found"
            case ambiguous
            case invalidArgument = "invalid argument"
            case invalidRecord = "invalid record"
            case invalidPath = "invalid path"
            case io = "i/o"
            case tooSoon = "too soon"
            case unavailable
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// The row exists already (a tenant id, …).
        public static var alreadyExists: Code { Code(.alreadyExists) }
        /// Something the request refers to does not exist (the tenant of a new key, an object's file).
        public static var notFound: Code { Code(.notFound) }
        /// A key prefix matches more than one active key.
        public static var ambiguous: Code { Code(.ambiguous) }
        /// An argument is out of range.
        public static var invalidArgument: Code { Code(.invalidArgument) }
        /// A stored row holds a value the domain types reject.
        public static var invalidRecord: Code { Code(.invalidRecord) }
        /// An object path is absolute, empty, or has an empty or dot-led component (`..`).
        public static var invalidPath: Code { Code(.invalidPath) }
        /// The file system or the S3-compatible object store failed.
        public static var io: Code { Code(.io) }
        /// A cooldown has not passed yet (linking partners again soon after unlinking).
        public static var tooSoon: Code { Code(.tooSoon) }
        /// The object store could not be reached, or answered that it cannot serve now: try again shortly.
        public static var unavailable: Code { Code(.unavailable) }

        public var description: String { value.rawValue }
    }

    public let code: Code
    /// What was refused and why, naming ids and paths but no user content.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var service: BackingService { .objectStore }

    public var isUnavailable: Bool { code == .unavailable }

    public var description: String { "\(code): \(message)" }
}
