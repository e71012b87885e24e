import Foundation
import KilnQueue
import KilnStore
import PostgresClient
import RedisClient
import Testing

/// The real Redis and PostgreSQL the test command started. A missing server fails the tests; it never skips them.
enum TestServers {
    static var redisURL: String {
        get throws {
            try #require(
                ProcessInfo.processInfo.environment["KILN_TEST_REDIS_URL"], "KILN_TEST_REDIS_URL is not set: run the tests with deploy/local/test.sh")
        }
    }

    static var databaseURL: String {
        get throws {
            try #require(
                ProcessInfo.processInfo.environment["KILN_TEST_DATABASE_URL"],
                "KILN_TEST_DATABASE_URL is not set: run the tests with deploy/local/test.sh")
        }
    }

    /// How many shards the tests' namespaces have, unless a test says: `KILN_TEST_REDIS_SHARDS`, or one.
    static var redisShards: Int? {
        ProcessInfo.processInfo.environment["KILN_TEST_REDIS_SHARDS"].flatMap { Int($0) }
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// An executable this test run built: `kiln`, or `kiln-dev` for the development tools.
    static func executable(_ name: String) throws -> URL {
        let directories = [".build/debug", ".build/x86_64-unknown-linux-gnu/debug", ".build/aarch64-unknown-linux-gnu/debug"]
        let found = directories.map { repositoryRoot.appendingPathComponent("\($0)/\(name)") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "build the \(name) executable first (swift build)")
    }
}
