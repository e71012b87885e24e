import PostgresClient
import Testing

/// A PostgreSQL of the test's own (``PrivatePostgres``), stopped and started under a pool: calls during the outage
/// fail as unavailable (the API answers 503), and the pool reconnects by itself afterwards.
@Suite struct PostgresRestartTests {
    @Test func callsDuringAnOutageFailAsUnavailableAndLaterOnesSucceed() async throws {
        let server = try PrivatePostgres()
        try await server.start()
        let pool = try server.pool()
        do {
            let before = try #require(try await pool.query("SELECT pg_backend_pid() AS pid").first).decode("pid", as: Int.self)
            // In flight when the server stops: cut short.
            let sleeping = Task { try await pool.query("SELECT pg_sleep(30)") }
            try await Task.sleep(for: .milliseconds(200))
            try await server.stop()
            let cut = try await #require(throws: PostgresError.self) { try await sleeping.value }
            #expect(cut.isUnavailable)

            // During the outage: pipelined queries and transactions alike.
            for _ in 0..<3 {
                let error = try await #require(throws: PostgresError.self) { try await pool.query("SELECT 1") }
                #expect(error.isUnavailable)
            }
            let transaction = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction { connection in try await connection.execute("SELECT 1") }
            }
            #expect(transaction.isUnavailable)

            try await server.start()
            // The first calls may still meet the reconnect delay; the pool must come back by itself.
            let after = try await Eventually.value(every: .milliseconds(100)) {
                try? await pool.query("SELECT pg_backend_pid() AS pid").first?.decode("pid", as: Int.self)
            }
            #expect(after != nil && after != before)
            let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
                for number in 0..<50 {
                    group.addTask { try #require(try await pool.query("SELECT $1::int AS n", [number]).first).decode("n", as: Int.self) }
                }
                return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            #expect(numbers == Set(0..<50))
            let committed = try await pool.withTransaction { connection in
                try await connection.query("SELECT 7 AS n").first?.decode("n", as: Int.self)
            }
            #expect(committed == 7)
        } catch {
            try await pool.close()
            await server.remove()
            throw error
        }
        try await pool.close()
        await server.remove()
    }
}
