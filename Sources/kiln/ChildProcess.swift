import Foundation

/// Another `kiln` process (an API node or a worker) that a benchmark starts and stops.
final class ChildProcess {
    private let process = Process()

    init(_ arguments: [String], logTo logPath: String) throws {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    /// Seconds of CPU the process has used so far.
    var cpuSeconds: Double { ProcessCPU.seconds(pid: process.processIdentifier) }

    /// SIGTERM, then waits (without blocking a thread) for the process to drain and exit.
    func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
