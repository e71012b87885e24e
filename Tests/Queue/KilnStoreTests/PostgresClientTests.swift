import Foundation
import PostgresClient
import Testing

@Suite struct PostgresClientTests {
    static let awkwardStrings = [
        "plain", "", "with space", "comma,inside", "quote\"inside", "back\\slash", "both \\\" end\\", "{braces}",
        "NULL", "null", "unicode: héllo, 世界, 🎉", "new\nline\ttab", "'single'",
    ]

    @Test func scalarParametersRoundTrip() async throws {
        try await TestDatabase.withSchema(.empty) { pool in
            let date = Date(timeIntervalSince1970: 1_795_490_433.123456)
            let early = Date(timeIntervalSince1970: -12_345.5)
            let bytes = (0...255).map(UInt8.init) + [0, 0]
            let uuid = UUID()
            let row = try #require(
                try await pool.query(
                    """
                    SELECT $1::text AS text, $2::bigint AS big, $3::int AS small, $4::bool AS yes, $5::bool AS no,
                        $6::float8 AS double, $7::timestamptz AS date, $8::timestamptz AS early, $9::bytea AS bytes,
                        $10::text AS null_text, $11::uuid AS uuid, $12::float8 AS infinite, $13::bytea AS data,
                        length($9::bytea) AS byte_count, extract(epoch FROM $7::timestamptz)::float8 AS epoch,
                        $1::text = 'unicode: héllo, 世界, 🎉 \\ " ''' AS server_saw_text
                    """,
                    [
                        "unicode: héllo, 世界, 🎉 \\ \" '", Int64.min, Int32.max, true, false, 0.1, date, early, bytes,
                        .null, uuid, -Double.infinity, Data([1, 2, 3]),
                    ]
                ).first)
            #expect(try row.decode("text", as: String.self) == "unicode: héllo, 世界, 🎉 \\ \" '")
            #expect(try row.decode("server_saw_text", as: Bool.self))
            #expect(try row.decode("big", as: Int64.self) == .min)
            #expect(try row.decode("small", as: Int32.self) == .max)
            #expect(try row.decode("small", as: Int.self) == Int(Int32.max))
            #expect(try row.decode("yes", as: Bool.self))
            #expect(try !row.decode("no", as: Bool.self))
            #expect(try row.decode("double", as: Double.self) == 0.1)
            #expect(try row.decode("infinite", as: Double.self) == -.infinity)
            #expect(try abs(row.decode("date", as: Date.self).timeIntervalSince(date)) < 1e-6)
            #expect(try abs(row.decode("epoch", as: Double.self) - 1_795_490_433.123456) < 1e-6)
            #expect(try abs(row.decode("early", as: Date.self).timeIntervalSince(early)) < 1e-6)
            #expect(try row.decode("bytes", as: [UInt8].self) == bytes)
            #expect(try row.decode("byte_count", as: Int.self) == 258)
            #expect(try row.decode("data", as: Data.self) == Data([1, 2, 3]))
            #expect(try row.decode("null_text", as: String?.self) == nil)
            #expect(try row.decode("uuid", as: UUID.self) == uuid)
            #expect(try row.decode(10, as: UUID.self) == uuid)
        }
    }

    @Test func arrayParametersRoundTrip() async throws {
        try await TestDatabase.withSchema(.empty) { pool in
            let strings = Self.awkwardStrings
            let optionals: [String?] = ["a", nil, "NULL", nil, "b,\"c\""]
            let numbers: [Int64] = [.min, -1, 0, 1, .max]
            // Leap days, the first and last years PostgreSQL prints with four digits, times before 1970.
            let dates = [
                Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_490_433.5), Date(timeIntervalSince1970: 951_782_400.75),
                Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799.5), Date(timeIntervalSince1970: -1.25),
            ]
            let row = try #require(
                try await pool.query(
                    """
                    SELECT $1::text[] AS strings, array_length($1::text[], 1) AS count, ($1::text[])[5] AS fifth,
                        $2::text[] AS optionals, ($2::text[])[2] IS NULL AS second_is_null, ($2::text[])[3] AS third,
                        $3::bigint[] AS numbers, $4::timestamptz[] AS dates, $5::text[] AS empty,
                        (SELECT count(*) FROM unnest($1::text[], $3::bigint[])) AS zipped
                    """,
                    [strings, optionals, numbers, dates, [String]()]
                ).first)
            #expect(try row.decode("strings", as: [String].self) == strings)
            #expect(try row.decode("count", as: Int.self) == strings.count)
            #expect(try row.decode("fifth", as: String.self) == strings[4])
            #expect(try row.decode("optionals", as: [String?].self) == optionals)
            #expect(try row.decode("second_is_null", as: Bool.self))
            #expect(try row.decode("third", as: String.self) == "NULL")
            #expect(try row.decode("numbers", as: [Int64].self) == numbers)
            #expect(try row.decode("dates", as: [Date].self) == dates)
            #expect(try row.decode("empty", as: [String].self).isEmpty)
            #expect(try row.decode("zipped", as: Int.self) == strings.count)
            #expect(throws: PostgresError.self) { try row.decode("optionals", as: [String].self) }
        }
    }

    @Test func decodingErrorsNameTheColumn() async throws {
        try await TestDatabase.withSchema(.empty) { pool in
            let row = try #require(try await pool.query("SELECT 'secret-value'::text AS label, NULL::int AS nothing").first)
            let mismatch = try #require(throws: PostgresError.self) { try row.decode("label", as: Int.self) }
            #expect(mismatch.description.contains("\"label\""))
            #expect(mismatch.description.contains("text"))
            #expect(!mismatch.description.contains("secret-value"))
            let missing = try #require(throws: PostgresError.self) { try row.decode("absent", as: String.self) }
            #expect(missing.description.contains("\"absent\""))
            let null = try #require(throws: PostgresError.self) { try row.decode("nothing", as: Int.self) }
            #expect(null.description.contains("NULL"))
            #expect(try row.decode("nothing", as: Int?.self) == nil)
            #expect(throws: PostgresError.self) { try row.decode(7, as: String.self) }
        }
    }

    @Test func uniqueViolationCarriesSQLState() async throws {
        try await TestDatabase.withSchema(.empty) { pool in
            try await pool.withConnection { connection in
                try await connection.execute("CREATE TABLE things (name text PRIMARY KEY)")
                try await connection.execute("INSERT INTO things VALUES ($1)", ["private-name"])
                let error = try await #require(throws: PostgresError.self) {
                    try await connection.execute("INSERT INTO things VALUES ($1)", ["private-name"])
                }
                #expect(error.code == "23505")
                #expect(error.isUniqueViolation)
                #expect(error.isServerError)
                #expect(!error.isUnavailable)
                #expect(error.category == "integrity constraint violation")
                #expect(!error.description.contains("private-name"))
                #expect(!error.description.contains("INSERT"))
                #expect(error.debugDescription.contains("private-name"))
                // The connection stays usable after a server error.
                #expect(try await connection.query("SELECT 1 AS one").first?.decode("one", as: Int.self) == 1)
            }
        }
    }

    /// Many tasks at once over one pipelined connection: each gets its own rows, all from the same session.
    @Test func concurrentQueriesShareOneConnection() async throws {
        try await TestDatabase.withSchema(.empty, configure: { $0.pipelinedConnections = 1 }) { pool in
            let answers = try await withThrowingTaskGroup(of: (Int, Int, Int).self) { group in
                for number in 0..<300 {
                    group.addTask {
                        let row = try #require(try await pool.query("SELECT $1::int AS n, pg_backend_pid() AS pid", [number]).first)
                        return (number, try row.decode("n", as: Int.self), try row.decode("pid", as: Int.self))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 300)
            #expect(answers.allSatisfy { $0.0 == $0.1 })
            #expect(Set(answers.map(\.2)).count == 1)
        }
    }

    /// Each pipelined statement is its own implicit transaction: one failing neither aborts nor rolls back the
    /// statements sent beside it.
    @Test func anErrorInOnePipelinedQueryLeavesTheOthersAlone() async throws {
        try await TestDatabase.withSchema(.empty, configure: { $0.pipelinedConnections = 1 }) { pool in
            try await pool.execute("CREATE TABLE numbers (n int PRIMARY KEY)")
            let outcomes = try await withThrowingTaskGroup(of: (Int, PostgresError?).self) { group in
                for number in 0..<200 {
                    group.addTask {
                        do {
                            // Every fifth statement divides by zero.
                            try await pool.execute("INSERT INTO numbers SELECT $1::int WHERE 1 / ($1::int % 5) IS NOT NULL", [number])
                            return (number, nil)
                        } catch let error as PostgresError {
                            return (number, error)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count == 200)
            let failed = outcomes.filter { $0.1 != nil }.map(\.0).sorted()
            #expect(failed == Array(stride(from: 0, to: 200, by: 5)))
            #expect(outcomes.compactMap(\.1).allSatisfy { $0.code == "22012" && !$0.isUnavailable })
            let stored = try await pool.query("SELECT count(*) AS count FROM numbers").first?.decode("count", as: Int.self)
            #expect(stored == 160)
        }
    }

    @Test func transactionCommitsOrRollsBack() async throws {
        struct Abort: Error {}
        try await TestDatabase.withSchema(.empty) { pool in
            try await pool.execute("CREATE TABLE counters (n int)")
            await #expect(throws: Abort.self) {
                try await pool.withTransaction { connection in
                    try await connection.execute("INSERT INTO counters VALUES (1)")
                    throw Abort()
                }
            }
            // A statement failed inside the body but the body caught it: the transaction still must not commit.
            let aborted = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction { connection in
                    try await connection.execute("INSERT INTO counters VALUES (2)")
                    _ = try? await connection.execute("SELECT 1 / 0")
                }
            }
            #expect(!aborted.isUnavailable)
            // Transactions at once, beside pipelined statements: each sees its own writes until it commits.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 10..<30 {
                    group.addTask {
                        try await pool.withTransaction { connection in
                            try await connection.execute("INSERT INTO counters VALUES ($1)", [number])
                            let own = try await connection.query("SELECT count(*) AS count FROM counters WHERE n = $1", [number])
                            #expect(try own.first?.decode("count", as: Int.self) == 1)
                        }
                    }
                    group.addTask { _ = try await pool.query("SELECT count(*) FROM counters") }
                }
                try await group.waitForAll()
            }
            let values = try await pool.query("SELECT n FROM counters ORDER BY n").map { try $0.decode("n", as: Int.self) }
            #expect(values == Array(10..<30))
        }
    }

    /// A connection left inside a transaction is closed, never handed to the next caller mid-transaction.
    @Test func aConnectionLeftInATransactionIsNotReused() async throws {
        try await TestDatabase.withSchema(.empty, configure: { $0.leasedConnections = 1 }) { pool in
            try await pool.execute("CREATE TABLE counters (n int)")
            let first = try await pool.withConnection { connection in
                try await connection.execute("BEGIN")
                try await connection.execute("INSERT INTO counters VALUES (1)")
                return try await connection.query("SELECT pg_backend_pid() AS pid").first?.decode("pid", as: Int.self)
            }
            let second = try await pool.withConnection { connection in
                try await connection.query("SELECT pg_backend_pid() AS pid").first?.decode("pid", as: Int.self)
            }
            #expect(first != nil && second != nil && first != second)
            #expect(try await pool.query("SELECT count(*) AS count FROM counters").first?.decode("count", as: Int.self) == 0)
        }
    }

    /// The timeout holds for the whole session, the test's schema made and dropped too: 2 s leave those room on a loaded
    /// machine, and the sleep is far longer.
    @Test func statementTimeoutCancelsLongStatements() async throws {
        try await TestDatabase.withSchema(.empty, configure: { $0.statementTimeout = .seconds(2) }) { pool in
            let error = try await #require(throws: PostgresError.self) { try await pool.query("SELECT pg_sleep(30)") }
            #expect(error.code == "57014")
            #expect(try await pool.query("SELECT 1 AS one").first?.decode("one", as: Int.self) == 1)
        }
    }

    /// A statement the server does not answer in time (no statement timeout here) fails on the client's clock, its
    /// connection closes, and later statements get a new one. The stuck statements wait for an advisory lock another
    /// pool holds, so they stay stuck however slow the machine; the timeout leaves room for connecting under load.
    @Test func queryTimeoutClosesAStuckConnection() async throws {
        try await TestDatabase.withSchema(
            .empty,
            configure: {
                $0.statementTimeout = .zero
                $0.queryTimeout = .seconds(2)
                $0.pipelinedConnections = 1
            }
        ) { pool in
            let holder = try PostgresPool(configuration: TestDatabase.configuration())
            let lock = Int64.random(in: 1...Int64.max)
            try await holder.execute("SELECT pg_advisory_lock($1)", [lock])
            // Should the client's clock never fire, the lock goes after 30 s and the test fails instead of hanging.
            let letGo = Task {
                guard (try? await Task.sleep(for: .seconds(30))) != nil else { return }
                try? await holder.close()
            }
            defer { letGo.cancel() }
            do {
                try await Self.stuckStatementsTimeOut(on: pool, stuck: "SELECT pg_advisory_lock(\(lock))")
            } catch {
                try? await holder.close()
                throw error
            }
            try await holder.close()
        }
    }

    /// `stuck` times out on the client's clock, on the pipelined connections and on a leased one, and the pool then
    /// answers on a new connection.
    private static func stuckStatementsTimeOut(on pool: PostgresPool, stuck: String) async throws {
        let before = try await pool.query("SELECT pg_backend_pid() AS pid").first?.decode("pid", as: Int.self)
        let error = try await #require(throws: PostgresError.self) { try await pool.query(stuck) }
        #expect(error.isTimeout)
        #expect(error.isUnavailable)
        let after = try await pool.query("SELECT pg_backend_pid() AS pid").first?.decode("pid", as: Int.self)
        #expect(before != nil && after != nil && before != after)
        let leased = try await #require(throws: PostgresError.self) {
            try await pool.withTransaction { connection in try await connection.query(stuck) }
        }
        #expect(leased.isUnavailable)
    }

    /// Beyond `maxPendingQueries`, calls fail at once as unavailable instead of queueing without bound.
    @Test func queriesBeyondThePendingCapFailFast() async throws {
        try await TestDatabase.withSchema(.empty, configure: { $0.maxPendingQueries = 4 }) { pool in
            let outcomes = await withTaskGroup(of: PostgresError?.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        do {
                            try await pool.query("SELECT pg_sleep(0.3)")
                            return nil
                        } catch let error as PostgresError {
                            return error
                        } catch {
                            return nil
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let refused = outcomes.compactMap { $0 }
            #expect(refused.count < 40)
            #expect(!refused.isEmpty)
            #expect(refused.allSatisfy { $0.isUnavailable && $0.category == "overload" })
        }
    }

    @Test func brokenConnectionIsReplaced() async throws {
        try await TestDatabase.withSchema(.empty, configure: { $0.pipelinedConnections = 1 }) { pool in
            let first = try await pool.query("SELECT pg_backend_pid() AS pid").first?.decode("pid", as: Int.self)
            let error = try await #require(throws: PostgresError.self) {
                try await pool.query("SELECT pg_terminate_backend(pg_backend_pid())")
            }
            #expect(error.isUnavailable)
            let second = try await pool.query("SELECT pg_backend_pid() AS pid").first?.decode("pid", as: Int.self)
            #expect(first != nil && second != nil && first != second)
        }
    }

    @Test func connectErrorsHideThePassword() async throws {
        var configuration = PostgresConfiguration(url: "postgresql://kiln:pa55-w0rd-secret@127.0.0.1:1/kiln")
        configuration.connectTimeout = .seconds(2)
        let pool = try PostgresPool(configuration: configuration)
        let error = try await #require(throws: PostgresError.self) { try await pool.query("SELECT 1") }
        #expect(error.isUnavailable)
        #expect(!error.description.contains("pa55-w0rd-secret"))
        #expect(!error.debugDescription.contains("pa55-w0rd-secret"))
        #expect(!error.message.contains("pa55-w0rd-secret"))
        // Within the reconnect delay a call fails at once, with the same error.
        let again = try await #require(throws: PostgresError.self) { try await pool.withTransaction { _ in } }
        #expect(again.isUnavailable)
        try await pool.close()

        let malformedPool = try PostgresPool(configuration: PostgresConfiguration(url: "postgresql://kiln:pa55-w0rd-secret@127.0.0.1:notaport/kiln"))
        let malformed = try await #require(throws: PostgresError.self) { try await malformedPool.query("SELECT 1") }
        #expect(malformed.isUnavailable)
        #expect(!malformed.description.contains("pa55-w0rd-secret"))
        #expect(!malformed.message.contains("pa55-w0rd-secret"))
        try await malformedPool.close()
    }

    @Test func aClosedPoolFailsCallsAsUnavailable() async throws {
        let pool = try PostgresPool(configuration: TestDatabase.configuration())
        #expect(try await pool.query("SELECT 1 AS one").first?.decode("one", as: Int.self) == 1)
        try await pool.close()
        let error = try await #require(throws: PostgresError.self) { try await pool.query("SELECT 1") }
        #expect(error.isUnavailable)
    }

    @Test func parametersWithNULBytesAreRefused() async throws {
        try await TestDatabase.withSchema(.empty) { pool in
            let error = try await #require(throws: PostgresError.self) { try await pool.query("SELECT $1::text", ["a\u{0}b"]) }
            #expect(error.description.contains("$1"))
        }
    }
}
