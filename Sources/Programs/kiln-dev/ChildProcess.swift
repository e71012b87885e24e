import ArgumentParser
import Foundation
import Spawning

/// A `kiln` process (an API node or a worker), or a `kiln-dev` server, that a benchmark or a load test starts and stops.
final class ChildProcess {
    /// The programs built beside this `kiln-dev`: the production commands come from the same build as the tools that
    /// drive them.
    enum Program: String {
        case kiln
        case kilnDev = "kiln-dev"

        var path: String {
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(rawValue).path
        }
    }

    private let process: SpawnedProcess

    convenience init(_ arguments: [String], program: Program = .kiln, logTo logPath: String) throws {
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            throw ValidationError(
                "\(program.path) is missing: kiln-dev starts the programs built beside it (swift build --product \(program.rawValue))")
        }
        try self.init(arguments, executable: program.path, logTo: logPath)
    }

    /// Runs the program at `path` (another release's `kiln`, say).
    init(_ arguments: [String], executable path: String, logTo logPath: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw ValidationError("\(path) is not an executable") }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        defer { try? log.close() }
        process = try SpawnedProcess([path] + arguments, stdout: .descriptor(log.fileDescriptor), stderr: .descriptor(log.fileDescriptor))
    }

    /// Seconds of CPU the process has used so far.
    var cpuSeconds: Double { ProcessCPU.seconds(pid: process.pid) }

    /// Bytes of memory the process has resident now, or 0 when it is gone.
    var residentBytes: Int { ProcessMemory.residentBytes(pid: process.pid) }

    /// SIGTERM, then waits (without blocking a thread) for the process to drain and exit.
    func stop() async {
        process.signal(SIGTERM)
        _ = await process.exit()
    }
}
