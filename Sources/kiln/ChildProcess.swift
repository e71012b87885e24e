import Foundation
import Spawning

/// Another `kiln` process (an API node or a worker) that a benchmark starts and stops.
final class ChildProcess {
    private let process: SpawnedProcess

    init(_ arguments: [String], logTo logPath: String) throws {
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        defer { try? log.close() }
        process = try SpawnedProcess(
            [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path] + arguments, stdout: .descriptor(log.fileDescriptor),
            stderr: .descriptor(log.fileDescriptor))
    }

    /// Seconds of CPU the process has used so far.
    var cpuSeconds: Double { ProcessCPU.seconds(pid: process.pid) }

    /// SIGTERM, then waits (without blocking a thread) for the process to drain and exit.
    func stop() async {
        process.signal(SIGTERM)
        _ = await process.exit()
    }
}
