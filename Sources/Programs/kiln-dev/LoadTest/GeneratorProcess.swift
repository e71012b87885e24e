import Foundation
import Spawning

/// A generator process of `kiln-dev loadtest quota`, spoken to one line at a time: it says `ready` once its connections
/// are open, and `done <wave>` after each `go <wave>`. Sending `go` to every process only once all have said `done` to
/// the last wave is the barrier that releases their requests together.
final class GeneratorProcess {
    let index: Int
    let logPath: String
    private let process: SpawnedProcess
    private let commands: FileHandle
    private var answers: AsyncStream<String>.AsyncIterator

    init(index: Int, arguments: [String], environment: [String: String], logPath: String) throws {
        self.index = index
        self.logPath = logPath
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        defer { try? log.close() }
        process = try SpawnedProcess(
            [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path] + arguments, environment: environment, stdin: .pipe,
            stdout: .pipe, stderr: .descriptor(log.fileDescriptor))
        // Both exist: the process was started with a pipe for each.
        guard let input = process.input, let output = process.output else { throw LoadRunError("generator \(index) has no pipes") }
        commands = input
        answers = output.readLines().makeAsyncIterator()
    }

    /// Seconds of CPU the process has used so far.
    var cpuSeconds: Double { ProcessCPU.seconds(pid: process.pid) }

    func send(_ command: String) throws {
        try commands.write(contentsOf: Data("\(command)\n".utf8))
    }

    /// Waits for the process's next line and checks that it is `answer`.
    func expect(_ answer: String) async throws {
        var iterator = answers
        let line = await iterator.next()
        answers = iterator
        guard line == answer else {
            let said = line.map { "\"\($0)\"" } ?? "nothing (it exited)"
            throw LoadRunError("generator \(index) said \(said) instead of \"\(answer)\"; see \(logPath)")
        }
    }

    /// Tells the process to stop, which it does after the wave it is sending, and waits (without blocking a thread) for it
    /// to exit; false when it failed. A cancelled run does not wait for the wave: the process is terminated.
    func stop() async -> Bool {
        try? send("stop")
        try? commands.close()
        if Task.isCancelled { process.signal(SIGTERM) }
        return await process.exit().succeeded
    }
}
