import Foundation
import Testing

/// Command-line tools the tests check videos with (ffprobe, ffmpeg).
enum Command {
    /// Runs `command` (looked up on PATH) on a thread of its own and returns what it printed; a non-zero exit fails the
    /// test. Waiting for a decoder would otherwise hold one of the few threads every suite's async work shares.
    static func run(_ command: [String]) async throws -> Data {
        let (output, status) = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, Int32), any Error>) in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = command
                let stdout = Pipe()
                process.standardOutput = stdout
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let output = stdout.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (output, process.terminationStatus))
            }.start()
        }
        try #require(status == 0, "\(command.joined(separator: " ")) exited with \(status)")
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
