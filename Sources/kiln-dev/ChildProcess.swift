import ArgumentParser
import Foundation
import Spawning

/// A `kiln` process (an API node or a worker) that a benchmark or a load test starts and stops.
final class ChildProcess {
    /// The `kiln` program built beside this `kiln-dev`: the production commands come from the same build as the tools
    /// that drive them.
    private static let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("kiln").path

    private let process: SpawnedProcess

    init(_ arguments: [String], logTo logPath: String) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.program) else {
            throw ValidationError("\(Self.program) is missing: kiln-dev starts the kiln program built beside it (swift build --product kiln)")
        }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        defer { try? log.close() }
        process = try SpawnedProcess([Self.program] + arguments, stdout: .descriptor(log.fileDescriptor), stderr: .descriptor(log.fileDescriptor))
    }

    /// Seconds of CPU the process has used so far.
    var cpuSeconds: Double { ProcessCPU.seconds(pid: process.pid) }

    /// SIGTERM, then waits (without blocking a thread) for the process to drain and exit.
    func stop() async {
        process.signal(SIGTERM)
        _ = await process.exit()
    }
}
