import KilnKeys
import KilnQueue
import Foundation
import KilnStore
import PostgresClient
import RedisClient
import S3Client

/// Everything a test's world holds, as text, to search for what must be gone: every key of its Redis namespace with
/// its values, every row of every table in its PostgreSQL schema, and every object with its bytes.
struct StoreContents {
    /// One line per Redis key (`key => values…`), table row (`table: row`) and object (`path => bytes`).
    let lines: [String]

    /// The lines that contain any of `needles`: what a search for them finds.
    func findings(of needles: [String]) -> [String] {
        lines.filter { line in needles.contains { line.contains($0) } }
    }

    /// Reads the harness's namespace, schema and objects (the local directory, or `s3`'s whole bucket).
    static func read(_ harness: Harness, s3: S3ObjectClient? = nil) async throws -> StoreContents {
        var lines = try await redisLines(harness)
        lines += try await databaseLines(harness)
        if let s3 {
            for key in try await s3.list(prefix: "") {
                lines.append("\(key) => \(String(decoding: try await s3.get(key: key) ?? [], as: UTF8.self))")
            }
        } else {
            lines += try localObjectLines(harness.objects.root)
        }
        return StoreContents(lines: lines)
    }

    /// Every key of the namespace, on every shard, with its values, whatever their type.
    private static func redisLines(_ harness: Harness) async throws -> [String] {
        var lines: [String] = []
        for shard in harness.redisNamespace.shards.all { lines += try await redisLines(harness, matching: shard.everyKey) }
        return lines
    }

    private static func redisLines(_ harness: Harness, matching pattern: String) async throws -> [String] {
        var lines: [String] = []
        var cursor = "0"
        repeat {
            let reply = try await harness.redis.send(["SCAN", cursor, "MATCH", pattern, "COUNT", "1000"]).array ?? []
            cursor = reply.first?.string ?? "0"
            for key in (reply.count > 1 ? reply[1].array ?? [] : []).compactMap(\.string) {
                let type = try await harness.redis.send(["TYPE", key]).string ?? ""
                let command: [String]
                switch type {
                case "string": command = ["GET", key]
                case "hash": command = ["HGETALL", key]
                case "list": command = ["LRANGE", key, "0", "-1"]
                case "set": command = ["SMEMBERS", key]
                case "zset": command = ["ZRANGE", key, "0", "-1", "WITHSCORES"]
                case "stream": command = ["XRANGE", key, "-", "+"]
                default: command = ["TYPE", key]
                }
                lines.append("\(key) => \(flatten(try await harness.redis.send(command)).joined(separator: " "))")
            }
        } while cursor != "0"
        return lines
    }

    private static func flatten(_ value: RedisValue) -> [String] {
        if let values = value.array { return values.flatMap(flatten) }
        return value.string.map { [$0] } ?? []
    }

    /// Every row of every table of the schema, as PostgreSQL spells a row as text: tables added later are searched too.
    private static func databaseLines(_ harness: Harness) async throws -> [String] {
        let tables = try await harness.database.query(
            "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
            [harness.schema]
        ).map { try $0.decode("name", as: String.self) }
        var lines: [String] = []
        for table in tables {
            // The name comes from the catalogue, not from input; quoted as an identifier all the same.
            let rows = try await harness.database.query("SELECT t::text AS row FROM \"\(table)\" t")
            lines += try rows.map { "\(table): \(try $0.decode("row", as: String.self))" }
        }
        return lines
    }

    /// Every file and directory under the local object root, files with their bytes.
    private static func localObjectLines(_ root: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var lines: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let contents = FileManager.default.contents(atPath: root.appendingPathComponent(relative).path)
            lines.append("\(relative) => \(contents.map { String(decoding: $0, as: UTF8.self) } ?? "(directory)")")
        }
        return lines
    }
}
