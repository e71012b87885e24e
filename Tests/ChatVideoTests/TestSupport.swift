import Foundation
import Testing

/// Command-line tools the tests check videos with (ffprobe, ffmpeg).
enum Command {
    /// Runs `command` (looked up on PATH) and returns what it printed; a non-zero exit fails the test.
    static func run(_ command: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(command.joined(separator: " ")) exited with \(process.terminationStatus)")
        return output
    }
}

/// A fresh directory, removed when the test lets go of it.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-chat-video-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
