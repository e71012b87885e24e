/// Lets a few harnesses at a time migrate their schemas. A test process starts a harness for every test in its first
/// seconds, and each runs all of Kiln's migrations in a schema of its own, most of it the day partitions' tables: two
/// hundred at once would keep statements queued in PostgreSQL past the client's query timeout (35 s), failing tests
/// before they begin. In turns, each migration takes its own short time, and the tests that have theirs start while the
/// others wait.
actor MigrationGate {
    static let shared = MigrationGate(width: 4)

    private let width: Int
    private var migrating = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private init(width: Int) {
        self.width = width
    }

    /// Runs `migration` once fewer than `width` others are running.
    static func inTurn(_ migration: () async throws -> Void) async throws {
        await shared.enter()
        do {
            try await migration()
        } catch {
            await shared.leave()
            throw error
        }
        await shared.leave()
    }

    /// Takes a turn at once when one is free, else waits to be handed one by ``leave()``.
    private func enter() async {
        if migrating < width {
            migrating += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    /// Hands the turn to the longest waiting, if any.
    private func leave() {
        if waiting.isEmpty {
            migrating -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
