import Foundation
import KilnCore
import KilnStore
import Testing

@Suite struct ObjectStoreTests {
    @Test func writeReadDelete() async throws {
        try await TestDatabase.withTemporaryDirectory { root in
            let store = ObjectStore(root: root.appendingPathComponent("objects"))
            let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let (size, sha256) = try await store.write(bytes, to: "tenants/acme/uploads/one")
            #expect(size == bytes.count)
            #expect(sha256 == Digest.sha256Hex(bytes))
            #expect(try await store.read("tenants/acme/uploads/one") == bytes)
            #expect(try store.fileURL(for: "tenants/acme/uploads/one").path == root.appendingPathComponent("objects/tenants/acme/uploads/one").path)
            try await store.delete("tenants/acme/uploads/one")
            let missing = try await #require(throws: StoreError.self) { try await store.read("tenants/acme/uploads/one") }
            #expect(missing.code == .notFound)
            try await store.delete("tenants/acme/uploads/one")
        }
    }

    @Test(arguments: ["../x", "a/../../x", "/etc/passwd", "", "a//b", "a/", "./a", ".hidden", "a/.b", "..", "a\u{0}b"])
    func rejectsUnsafePaths(path: String) async throws {
        try await TestDatabase.withTemporaryDirectory { root in
            let store = ObjectStore(root: root)
            let error = try await #require(throws: StoreError.self) { try await store.write([1], to: path) }
            #expect(error.code == .invalidPath)
            #expect(throws: StoreError.self) { try store.fileURL(for: path) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
        }
    }

    /// Readers racing writers see no object or a whole one, never a part; no temporary file survives.
    @Test func writesAreAtomic() async throws {
        try await TestDatabase.withTemporaryDirectory { root in
            let store = ObjectStore(root: root)
            let path = "tenants/acme/jobs/j/1/video.mp4"
            let versions: [[UInt8]] = [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "c")].map { [UInt8](repeating: $0, count: 2 << 20) }
            let observations = try await withThrowingTaskGroup(of: [String].self) { group in
                group.addTask {
                    for round in 0..<12 { _ = try await store.write(versions[round % versions.count], to: path) }
                    return []
                }
                for _ in 0..<4 {
                    group.addTask {
                        var seen: [String] = []
                        for _ in 0..<40 {
                            do {
                                let bytes = try await store.read(path)
                                let whole = bytes.count == 2 << 20 && bytes.allSatisfy { $0 == bytes[0] }
                                seen.append(whole ? "whole" : "partial")
                            } catch let error as StoreError where error.code == .notFound {
                                seen.append("absent")
                            }
                        }
                        return seen
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(!observations.contains("partial"))
            #expect(observations.contains("whole"))
            let directory = try store.fileURL(for: path).deletingLastPathComponent()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["video.mp4"])
        }
    }
}
