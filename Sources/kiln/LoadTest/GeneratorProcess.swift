import Foundation

/// A generator process of `kiln loadtest quota`, spoken to one line at a time: it says `ready` once its connections are
/// open, and `done <wave>` after each `go <wave>`. Sending `go` to every process only once all have said `done` to
/// the last wave is the barrier that releases their requests together.
final class GeneratorProcess {
    let index: Int
    let logPath: String
    private let process = Process()
    private let commands = Pipe()
    private var answers: AsyncStream<String>.AsyncIterator

    init(index: Int, arguments: [String], environment: [String: String], logPath: String) throws {
        self.index = index
        self.logPath = logPath
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        process.environment = environment
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = commands
        answers = output.fileHandleForReading.readLines().makeAsyncIterator()
        try process.run()
    }

    /// Seconds of CPU the process has used so far.
    var cpuSeconds: Double { ProcessCPU.seconds(pid: process.processIdentifier) }

    func send(_ command: String) throws {
        try commands.fileHandleForWriting.write(contentsOf: Data("\(command)\n".utf8))
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
        try? commands.fileHandleForWriting.close()
        if Task.isCancelled { process.terminate() }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        return process.terminationStatus == 0
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
