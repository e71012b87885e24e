import ChatVideo
import Foundation
import Testing

@Suite("FFmpegProcess")
struct FFmpegProcessTests {
    /// ffmpeg's input options for 64×64 grey frames read at one frame a second (`-re`), so the pipe fills and a
    /// large write blocks.
    private static let slowReader = ["-hide_banner", "-re", "-f", "rawvideo", "-pix_fmt", "gray", "-s", "64x64", "-r", "1", "-i", "-"]

    @Test("an encode that succeeds reports its CPU time and memory")
    func usageOfASuccessfulRun() throws {
        let process = try FFmpegProcess(arguments: [
            "-hide_banner", "-f", "rawvideo", "-pix_fmt", "gray", "-s", "64x64", "-i", "-", "-f", "null", "-",
        ])
        let frames = [UInt8](repeating: 100, count: 64 * 64 * 10)
        try frames.withUnsafeBytes { try process.write($0) }
        let usage = try process.finish()
        #expect(usage.cpuSeconds > 0)
        #expect(usage.peakMemoryBytes > 1_000_000)
        // Reaped once: asking again gives the same answer, and a late kill finds nothing to kill.
        process.kill()
        #expect(try process.finish() == usage)
    }

    @Test("a process killed from another thread while a write blocks makes the write throw, and finish report it")
    func killedMidWrite() throws {
        let process = try FFmpegProcess(arguments: Self.slowReader + ["-f", "null", "-"])
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            process.kill()
        }
        let input = [UInt8](repeating: 0, count: 16 << 20)
        let writeError = #expect(throws: FFmpegError.self) {
            try input.withUnsafeBytes { try process.write($0) }
        }
        #expect(writeError?.kind == .killed)
        let finishError = #expect(throws: FFmpegError.self) {
            try process.finish()
        }
        #expect(finishError?.kind == .killed)
        #expect(finishError?.signal == 9)
        // Killing again after the reap must not signal whatever process has the pid now.
        process.kill()
    }

    @Test("a process that stops reading makes the write throw a broken pipe, not kill the test with SIGPIPE")
    func brokenPipe() throws {
        let process = try FFmpegProcess(arguments: [], executable: "true")
        let input = [UInt8](repeating: 0, count: 1 << 20)
        let error = #expect(throws: FFmpegError.self) {
            try input.withUnsafeBytes { try process.write($0) }
        }
        #expect(error?.kind == .brokenPipe)
        #expect(try process.finish().cpuSeconds >= 0)
    }

    @Test("a non-zero exit throws with the exit status and the end of stderr")
    func failureCarriesTheLog() throws {
        let process = try FFmpegProcess(arguments: ["-hide_banner", "-no-such-option", "-i", "-", "-f", "null", "-"])
        let error = #expect(throws: FFmpegError.self) {
            try process.finish()
        }
        #expect(error?.kind == .failed)
        #expect(error?.exitStatus != nil && error?.exitStatus != 0)
        #expect(error?.log.contains { $0.contains("no-such-option") } == true)
        #expect(error?.description.contains("no-such-option") == true)
    }

    @Test("a program that is not on PATH fails to launch")
    func missingProgram() {
        let error = #expect(throws: FFmpegError.self) {
            try FFmpegProcess(arguments: [], executable: "kiln-no-such-program")
        }
        #expect(error?.kind == .launch)
    }

    @Test("dropping a running process kills and reaps it")
    func deinitKillsTheChild() throws {
        let marker = "kiln-test-\(UUID().uuidString)"
        let pid = try {
            let process = try FFmpegProcess(arguments: Self.slowReader + ["-metadata", "comment=\(marker)", "-f", "null", "-"])
            return try withExtendedLifetime(process) { try #require(Self.child(running: marker)) }
        }()
        // Reaped, the child is gone from /proc, not left a zombie.
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(pid)"))
    }

    /// The pid of this test process's child whose command line contains `marker`; tests run in parallel, so the
    /// marker tells ours apart. Polled: `posix_spawnp` returns as soon as the child has left our address space, a
    /// moment before the kernel shows its new command line.
    private static func child(running marker: String) -> Int? {
        for _ in 0..<200 {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            let found = entries.compactMap(Int.init).first { pid in
                guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                    status.contains("\nPPid:\t\(getpid())\n"),
                    let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
                else { return false }
                return String(decoding: commandLine, as: UTF8.self).contains(marker)
            }
            if let found {
                return found
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }
}
