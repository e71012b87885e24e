import BlockingWork
import Documents
import Drawing
import Foundation
import RenderingFixtures
import Testing

/// Zips checked with the tools people open them with: Info-ZIP's unzip and zipinfo, and Python's zipfile.
@Suite struct ZipArchiveTests {
    static let text = Array(String(repeating: "Café façade — “quoted” שלום 🐉\n", count: 4).utf8)
    static let compressible = Array(String(repeating: "The party meets at the Gilded Griffin. ", count: 2_000).utf8)
    static let incompressible = (0..<4_096).map { _ in UInt8.random(in: 0...255) }

    static func entries() -> [(path: String, bytes: [UInt8], compressed: Bool)] {
        [
            ("mimetype", Array("application/epub+zip".utf8), false),
            ("folder/café — naïve.txt", text, true),
            ("empty.txt", [], true),
            ("long.txt", compressible, true),
            ("noise.bin", incompressible, true),
        ]
    }

    static func archive(_ entries: [(path: String, bytes: [UInt8], compressed: Bool)]) throws -> [UInt8] {
        var archive = ZipArchive()
        for entry in entries {
            try archive.add(entry.path, entry.bytes, compressed: entry.compressed)
        }
        return archive.finish()
    }

    @Test func unzipAndPythonReadEveryEntryBackByItsUTF8Name() async throws {
        let entries = Self.entries()
        let directory = try TemporaryDirectory()
        let path = directory.path + "/test.zip"
        let bytes = try await BlockingExecutor.rendering.run { try Self.archive(entries) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        // Both test every entry's CRC and exit non-zero on any damage.
        _ = try await Command.run(["unzip", "-t", path])
        _ = try await Command.run(["/usr/bin/python3", "-m", "zipfile", "-t", path])

        let names = String(decoding: try await Command.run(["unzip", "-Z1", path]), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(names == entries.map(\.path))
        let listing = String(decoding: try await Command.run(["/usr/bin/python3", "-m", "zipfile", "-l", path]), as: UTF8.self)
        for entry in entries {
            #expect(listing.contains(entry.path))
            let content = try await Command.run(["unzip", "-p", path, entry.path])
            #expect([UInt8](content) == entry.bytes, "\(entry.path)")
        }
    }

    /// `unzip -v` names each entry's method: the mimetype must be stored, text deflated, and noise that deflate would
    /// only grow is stored as well.
    @Test func entriesAreStoredOrDeflatedAsAsked() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/test.zip"
        let entries = Self.entries()
        try Data(try Self.archive(entries)).write(to: URL(fileURLWithPath: path))

        let verbose = String(decoding: try await Command.run(["unzip", "-v", path]), as: UTF8.self)
        var methods: [String: String] = [:]
        for line in verbose.split(separator: "\n") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            // Length, Method, Size, Cmpr, Date, Time, CRC-32, Name (which may hold spaces).
            guard columns.count >= 8, Int(columns[0]) != nil, columns[1] == "Stored" || columns[1].hasPrefix("Defl") else { continue }
            methods[columns[7...].joined(separator: " ")] = String(columns[1])
        }
        #expect(methods["mimetype"] == "Stored")
        #expect(methods["long.txt"] == "Defl:N")
        #expect(methods["folder/café — naïve.txt"] == "Defl:N")
        #expect(methods["noise.bin"] == "Stored")
        #expect(methods["empty.txt"] == "Stored")
        let long = try #require(verbose.split(separator: "\n").first { $0.hasSuffix("long.txt") })
        print("long.txt in unzip -v:", long)
    }

    @Test func theSameEntriesGiveTheSameBytes() throws {
        let entries = Self.entries()
        #expect(try Self.archive(entries) == Self.archive(entries))
    }

    @Test func anEmptyArchiveIsJustTheEndRecord() async throws {
        let bytes = ZipArchive().finish()
        #expect(bytes.count == 22)
        let directory = try TemporaryDirectory()
        let path = directory.path + "/empty.zip"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let count = try await Command.run([
            "/usr/bin/python3", "-c", "import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))", path,
        ])
        #expect(String(decoding: count, as: UTF8.self) == "0\n")
    }
}
