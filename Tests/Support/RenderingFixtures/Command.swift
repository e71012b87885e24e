public import Foundation
import Spawning

/// Command-line tools the tests check videos and documents with (ffprobe, pdftotext, epubcheck, chromium, …).
public enum Command {
    /// Runs `command` (looked up on PATH) on a thread of its own and returns what it printed; a non-zero exit fails the
    /// test (it throws, with the end of what the command printed on stderr). Waiting for a decoder would otherwise hold
    /// one of the few threads every suite's async work shares. What the command prints on stderr is kept out of the
    /// test's output (Chromium's is long) unless it fails.
    public static func run(_ command: [String]) async throws -> Data {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-command-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: errors) }
        let (output, status) = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, Int32), any Error>) in
            Thread {
                do {
                    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
                    let stderr = try FileHandle(forWritingTo: errors)
                    defer { try? stderr.close() }
                    let process = try SpawnedProcess(command, stdout: .pipe, stderr: .descriptor(stderr.fileDescriptor))
                    // The process was started with a pipe for its stdout.
                    let output = try process.output?.readToEnd() ?? Data()
                    let termination = process.waitUntilExit()
                    continuation.resume(returning: (output, termination.shellStatus))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
        guard status == 0 else {
            let log = String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self)
            throw Failure(command: command.joined(separator: " "), status: status, stderr: String(log.suffix(2000)))
        }
        return output
    }

    /// A command that exited with a non-zero status.
    public struct Failure: Error, CustomStringConvertible {
        public let command: String
        public let status: Int32
        /// The end of what it printed on stderr.
        public let stderr: String
        public var description: String { "\(command) exited with \(status): \(stderr)" }
    }
}
