import Locking

/// One statement the loop sends: what to send, until when, and whom to answer.
///
/// Made on the caller's task, then handed to the loop thread, which alone reads and changes it from then on.
/// `@unchecked Sendable` for that hand-over: the inbox's lock orders the caller's writes before the loop's reads.
final class QueryRequest: @unchecked Sendable {
    /// What to send.
    enum Statement {
        /// One statement with `$1 … $n` parameters in text format (`PQsendQueryParams`); nil is `NULL`.
        case parameters(sql: String, values: [String?])
        /// `;`-separated statements without parameters (`PQsendQuery`), for migration files on a leased connection.
        case script(String)

        /// The statement with its parameters' text, checked for what libpq cannot send.
        init(sql: String, parameters: [any PostgresEncodable]) throws(PostgresError) {
            let values = parameters.map(\.postgresValue.text)
            try Self.checkNoNUL(sql, "the statement")
            for (index, value) in values.enumerated() {
                if let value { try Self.checkNoNUL(value, "parameter $\(index + 1)") }
            }
            guard values.count <= Int(UInt16.max) else {
                throw PostgresError.encoding("a statement takes at most 65535 parameters; send arrays instead")
            }
            self = .parameters(sql: sql, values: values)
        }

        init(script: String) throws(PostgresError) {
            try Self.checkNoNUL(script, "the script")
            self = .script(script)
        }

        private static func checkNoNUL(_ text: String, _ what: String) throws(PostgresError) {
            guard !text.utf8.contains(0) else {
                throw PostgresError.encoding("\(what) contains a NUL byte, which PostgreSQL text cannot hold")
            }
        }
    }

    /// Who waits for the answer.
    enum Answer {
        /// A caller's task, holding a place in the pool's ``PendingCount``.
        case caller(CheckedContinuation<PostgresRows, any Error>, PendingCount)
        /// The connection itself: its session's settings, sent before any caller's statement.
        case session
    }

    let statement: Statement
    let deadline: ContinuousClock.Instant
    private let answer: Answer
    /// The rows of the last result, or the first error, as results arrive.
    private(set) var outcome: Result<PostgresRows, PostgresError>?
    /// Whether the statement's results have ended (`PQgetResult` gave NULL); a pipelined one then awaits its Sync.
    var resultsEnded = false
    /// Whether the caller was answered.
    private var isFinished = false

    init(_ statement: Statement, deadline: ContinuousClock.Instant, answer: Answer) {
        self.statement = statement
        self.deadline = deadline
        self.answer = answer
    }

    var isScript: Bool {
        if case .script = statement { return true }
        return false
    }

    /// Records one result: the first error wins, otherwise the latest rows (a script answers its last statement's).
    func record(_ result: Result<PostgresRows, PostgresError>) {
        if case .failure = outcome { return }
        outcome = result
    }

    /// Answers with what was recorded, or with `error` when nothing was.
    func finish(otherwise error: PostgresError) {
        if outcome == nil { outcome = .failure(error) }
        resume()
    }

    /// Answers with `error`, whatever was recorded.
    func fail(_ error: PostgresError) {
        outcome = .failure(error)
        resume()
    }

    /// Resumes the caller once; a second answer (a request failed twice on the way out) is dropped.
    private func resume() {
        guard !isFinished, case .caller(let continuation, let pending) = answer, let outcome else { return }
        isFinished = true
        pending.release()
        continuation.resume(with: outcome.mapError { $0 as any Error })
    }
}

/// How many queries and lease requests wait or run, against ``PostgresConfiguration/maxPendingQueries``.
final class PendingCount: Sendable {
    private let count = Locked(0)
    private let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes a place; false when all are taken.
    func reserve() -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func release() {
        count.withLock { $0 -= 1 }
    }
}
