import Foundation
import Glibc
import Synchronization

/// A running `ffmpeg` (or another program) that reads what we write to its stdin: its stdout goes to `/dev/null`, its
/// stderr to an unnamed temporary file, so a failure can quote the end of its log.
///
/// Running the ffmpeg CLI in its own process keeps a crash or a hang out of the worker, lets us kill it, and keeps the
/// GPL libx264 out of our binary.
///
/// ``write(_:)`` and ``finish()`` belong to one thread, the one exporting; ``kill()`` may come from any thread at any
/// time, for example a cancellation handler, and makes a blocked ``write(_:)`` or ``finish()`` return at once with a
/// ``FFmpegError/Kind/killed`` error. Dropping the last reference kills and reaps a child that is still running.
public final class FFmpegProcess: Sendable {
    /// What the finished process cost, read from the kernel's accounting when it was reaped.
    public struct Usage: Sendable, Equatable {
        /// The most memory it had resident at once.
        public let peakMemoryBytes: Int
        /// User plus system CPU time, over all its threads.
        public let cpuSeconds: Double
    }

    private let pid: pid_t
    /// The temporary file the child's stderr goes to. Its name is removed as soon as it is created, so it holds no
    /// space once this descriptor and the child's are closed, even if the worker crashes.
    private let logDescriptor: Int32
    private let state: Mutex<State>

    private struct State {
        /// The write end of the child's stdin; nil once ``finish()`` closed it.
        var input: Int32?
        /// Set by ``kill()``, so errors say "killed" rather than "crashed".
        var killRequested = false
        /// Set once the child is reaped; its pid may belong to another process from then on.
        var termination: Termination?
    }

    private struct Termination {
        /// The raw status from `wait4`.
        let status: Int32
        let usage: Usage
    }

    /// Starts `executable`, looked up on `PATH` unless it contains a slash, with `arguments` after its name.
    public init(arguments: [String], executable: String = "ffmpeg") throws {
        _ = Self.brokenPipesIgnored
        let log = try Self.makeLogFile()
        let spawned: (pid: pid_t, input: Int32)
        do {
            spawned = try Self.spawnLock.withLock { _ throws(FFmpegError) in
                try Self.spawn(executable: executable, arguments: arguments, stderr: log)
            }
        } catch {
            close(log)
            throw error
        }
        self.pid = spawned.pid
        self.logDescriptor = log
        self.state = Mutex(State(input: spawned.input))
    }

    deinit {
        self.state.withLock { state in
            if let input = state.input {
                close(input)
            }
            if state.termination == nil {
                Glibc.kill(self.pid, SIGKILL)
                var status: Int32 = 0
                while wait4(self.pid, &status, 0, nil) < 0 && errno == EINTR {}
            }
        }
        close(self.logDescriptor)
    }

    /// Writes all of `bytes` to the program's stdin, blocking while the pipe is full.
    ///
    /// Throws ``FFmpegError/Kind/killed`` after ``kill()``, and ``FFmpegError/Kind/brokenPipe`` when the program
    /// stopped reading (it exited or crashed); ``finish()`` then says how it ended.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        let (input, killed) = self.state.withLock { ($0.input, $0.killRequested) }
        if killed {
            throw FFmpegError.killedWhileRunning
        }
        guard let input else {
            throw FFmpegError(kind: .brokenPipe, message: "the input was already closed by finish()")
        }
        var remaining = bytes
        while !remaining.isEmpty {
            let written = Glibc.write(input, remaining.baseAddress, remaining.count)
            if written >= 0 {
                remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EPIPE:
                if self.state.withLock({ $0.killRequested }) {
                    throw FFmpegError.killedWhileRunning
                }
                throw FFmpegError(kind: .brokenPipe, message: "the program stopped reading its input: it exited or crashed")
            default:
                throw FFmpegError.system("write")
            }
        }
    }

    /// Closes the program's stdin, so it sees the end of its input, waits for it to exit, and reaps it.
    ///
    /// Returns what it cost when it exited with status 0; throws ``FFmpegError/Kind/failed`` with the end of its log
    /// otherwise, or ``FFmpegError/Kind/killed`` after ``kill()``. Calling it again gives the same answer.
    public func finish() throws -> Usage {
        self.state.withLock { state in
            if let input = state.input {
                close(input)
                state.input = nil
            }
        }
        let termination = try self.waitForTermination()
        let status = termination.status
        let signal = status & 0x7F
        if signal == 0 {
            let exitStatus = (status >> 8) & 0xFF
            guard exitStatus != 0 else { return termination.usage }
            throw FFmpegError(
                kind: .failed,
                message: "the program exited with status \(exitStatus)",
                exitStatus: Int(exitStatus),
                log: self.logTail()
            )
        }
        if signal == SIGKILL && self.state.withLock({ $0.killRequested }) {
            throw FFmpegError(kind: .killed, message: "the program was killed", signal: Int(signal), log: self.logTail())
        }
        throw FFmpegError(kind: .failed, message: "the program was ended by signal \(signal)", signal: Int(signal), log: self.logTail())
    }

    /// Sends SIGKILL unless the program has already been reaped. Safe from any thread, any number of times.
    public func kill() {
        self.state.withLock { state in
            // Under the lock, `termination == nil` means the pid is still ours: reaping takes this lock too.
            guard state.termination == nil else { return }
            state.killRequested = true
            Glibc.kill(self.pid, SIGKILL)
        }
    }

    /// Waits for the child to exit without holding the lock, so ``kill()`` stays possible while we wait, then reaps it.
    ///
    /// `waitid` with `WNOWAIT` leaves the exited child a zombie, which keeps its pid; the pid is only released by the
    /// `wait4` under the lock, so ``kill()`` can never signal a process that has since taken the same pid.
    private func waitForTermination() throws -> Termination {
        if let termination = self.state.withLock({ $0.termination }) {
            return termination
        }
        var info = siginfo_t()
        while waitid(P_PID, id_t(self.pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { throw FFmpegError.system("waitid") }
        }
        return try self.state.withLock { state throws(FFmpegError) in
            if let termination = state.termination {
                return termination
            }
            var status: Int32 = 0
            var usage = rusage()
            while wait4(self.pid, &status, 0, &usage) < 0 {
                guard errno == EINTR else { throw FFmpegError.system("wait4") }
            }
            let cpu = usage.ru_utime.seconds + usage.ru_stime.seconds
            // Linux counts ru_maxrss in kilobytes.
            let termination = Termination(status: status, usage: Usage(peakMemoryBytes: usage.ru_maxrss * 1024, cpuSeconds: cpu))
            state.termination = termination
            return termination
        }
    }

    /// The last lines of the program's stderr, read from the end of the log file without disturbing the child's
    /// writes. Carriage returns count as line ends: ffmpeg redraws its progress line with them.
    private func logTail(lines: Int = 20) -> [String] {
        var info = stat()
        guard fstat(self.logDescriptor, &info) == 0 else { return [] }
        let length = min(Int(info.st_size), 16 * 1024)
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            count = max(0, pread(self.logDescriptor, buffer.baseAddress, length, off_t(Int(info.st_size) - length)))
        }
        return bytes.split { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
            .suffix(lines)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Creates the stderr log in the temporary directory and removes its name at once: the file lives as long as its
    /// descriptors. `O_CLOEXEC` keeps it out of children spawned by other threads; ours gets it as its stderr.
    private static func makeLogFile() throws(FFmpegError) -> Int32 {
        let path = "\(FileManager.default.temporaryDirectory.path)/kiln-ffmpeg-\(UUID().uuidString).log"
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FFmpegError.system("open \(path)", kind: .launch) }
        unlink(path)
        return descriptor
    }

    /// Held while a stdin pipe is created and its child spawned. Glibc's `pipe2`, which would make the pipe
    /// close-on-exec atomically, is not visible to Swift, and a pipe is only marked close-on-exec a moment after
    /// `pipe`: a child spawned by another export in that moment would inherit our write end and keep it open, and
    /// our ffmpeg would then never see the end of its input. (Foundation's `Process` closes inherited descriptors in
    /// its children, so only our own spawns need the lock.)
    private static let spawnLock = Mutex(())

    /// Starts the child with a new pipe as its stdin and returns its pid and the pipe's write end.
    private static func spawn(executable: String, arguments: [String], stderr: Int32) throws(FFmpegError) -> (pid: pid_t, input: Int32) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw FFmpegError.system("pipe", kind: .launch) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        defer { close(readEnd) }
        guard fcntl(readEnd, F_SETFD, FD_CLOEXEC) == 0, fcntl(writeEnd, F_SETFD, FD_CLOEXEC) == 0 else {
            let error = FFmpegError.system("fcntl", kind: .launch)
            close(writeEnd)
            throw error
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copy, so the child keeps exactly these three descriptors.
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO)

        // The child starts with default signal handling and nothing blocked, whatever the worker did to its own: an
        // inherited "ignore SIGPIPE" or a blocked SIGTERM would change how ffmpeg ends.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }

        var pid: pid_t = 0
        let result = posix_spawnp(&pid, executable, &actions, &attributes, argv, environment)
        guard result == 0 else {
            close(writeEnd)
            throw FFmpegError(kind: .launch, message: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        return (pid, writeEnd)
    }

    /// A write to a pipe whose reader has gone raises SIGPIPE, which kills the whole worker by default. Ignored, the
    /// write fails with EPIPE instead and ``write(_:)`` throws. The static initialiser runs once per process.
    private static let brokenPipesIgnored: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()
}

extension FFmpegError {
    fileprivate static let killedWhileRunning = FFmpegError(kind: .killed, message: "the program was killed")

    /// A failed system call, with `errno` read at once, before another call overwrites it.
    fileprivate static func system(_ call: String, kind: Kind = .system) -> Self {
        let code = errno
        return FFmpegError(kind: kind, message: "\(call) failed: \(String(cString: strerror(code))) (errno \(code))")
    }
}

extension timeval {
    fileprivate var seconds: Double {
        Double(self.tv_sec) + Double(self.tv_usec) / 1_000_000
    }
}
