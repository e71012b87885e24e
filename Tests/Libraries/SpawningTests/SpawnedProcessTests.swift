import Foundation
import Spawning
import Testing

@Suite struct SpawnedProcessTests {
    @Test func whatIsWrittenToItsStdinComesBackOnItsStdout() throws {
        let process = try SpawnedProcess(["cat"], stdin: .pipe, stdout: .pipe)
        try #require(process.input).write(contentsOf: Data("a line\nand another\n".utf8))
        try #require(process.input).close()
        #expect(try #require(process.output).readToEnd() == Data("a line\nand another\n".utf8))
        #expect(process.waitUntilExit().succeeded)
    }

    @Test func theChildKeepsOnlyItsThreeStreams() throws {
        // A descriptor of ours that is not close-on-exec, which a plain posix_spawn would hand down.
        let inheritable = open("/dev/zero", O_RDONLY)
        try #require(inheritable >= 3)
        defer { close(inheritable) }
        let process = try SpawnedProcess(["sh", "-c", "ls /proc/$$/fd"], stdout: .pipe)
        let listed = String(decoding: try #require(process.output).readToEnd() ?? Data(), as: UTF8.self)
        #expect(listed.split(separator: "\n").sorted() == ["0", "1", "2"], "sh's own descriptors only, plus none of ours")
        #expect(process.waitUntilExit().succeeded)
    }

    @Test func anExitStatusAndASignalAreToldApart() async throws {
        let failing = try SpawnedProcess(["sh", "-c", "exit 3"])
        let failed = await failing.exit()
        #expect(failed.exitStatus == 3 && failed.signal == nil && failed.shellStatus == 3)

        let sleeping = try SpawnedProcess(["sleep", "30"])
        #expect(sleeping.isRunning)
        sleeping.signal(SIGTERM)
        let ended = await sleeping.exit()
        #expect(ended.signal == SIGTERM && ended.exitStatus == nil && ended.shellStatus == 128 + SIGTERM)
        #expect(!sleeping.isRunning)
        // Reaped: the pid may be another process's now, so nothing is sent.
        sleeping.signal(SIGKILL)
    }

    @Test func aProgramThatIsNotThereIsAnError() {
        #expect(throws: SpawnError.self) { try SpawnedProcess(["kiln-no-such-program"]) }
    }
}
