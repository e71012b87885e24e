import Foundation
import Glibc
import Spawning
import Locking

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

    private let child: SpawnedProcess
    /// The temporary file the child's stderr goes to. Its name is removed as soon as it is created, so it holds no
    /// space once this descriptor and the child's are closed, even if the worker crashes.
    private let logDescriptor: Int32
    private let state: Locked<State>

    private struct State {
        /// The write end of the child's stdin; nil once ``finish()`` closed it.
        var input: FileHandle?
        /// Set by ``kill()``, so errors say "killed" rather than "crashed".
        var killRequested = false
    }

    /// Starts `executable`, looked up on `PATH` unless it contains a slash, with `arguments` after its name.
    public init(arguments: [String], executable: String = "ffmpeg") throws {
        _ = Self.brokenPipesIgnored
        let log = try Self.makeLogFile()
        do {
            child = try SpawnedProcess([executable] + arguments, stdin: .pipe, stdout: .null, stderr: .descriptor(log))
        } catch {
            close(log)
            throw FFmpegError(kind: .launch, message: error.description)
        }
        self.logDescriptor = log
        self.state = Locked(State(input: child.input))
    }

    deinit {
        self.state.withLock { state in
            try? state.input?.close()
        }
        close(self.logDescriptor)
    }

    /// Writes all of `bytes` to the program's stdin, blocking while the pipe is full.
    ///
    /// Throws ``FFmpegError/Kind/killed`` after ``kill()``, and ``FFmpegError/Kind/brokenPipe`` when the program
    /// stopped reading (it exited or crashed); ``finish()`` then says how it ended.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        let (input, killed) = self.state.withLock { ($0.input?.fileDescriptor, $0.killRequested) }
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
            try? state.input?.close()
            state.input = nil
        }
        let termination = child.waitUntilExit()
        if let exitStatus = termination.exitStatus {
            guard exitStatus != 0 else { return Usage(peakMemoryBytes: termination.peakMemoryBytes, cpuSeconds: termination.cpuSeconds) }
            throw FFmpegError(
                kind: .failed,
                message: "the program exited with status \(exitStatus)",
                exitStatus: Int(exitStatus),
                log: self.logTail()
            )
        }
        let signal = termination.signal ?? 0
        if signal == SIGKILL && self.state.withLock({ $0.killRequested }) {
            throw FFmpegError(kind: .killed, message: "the program was killed", signal: Int(signal), log: self.logTail())
        }
        throw FFmpegError(kind: .failed, message: "the program was ended by signal \(signal)", signal: Int(signal), log: self.logTail())
    }

    /// Sends SIGKILL unless the program has already been reaped. Safe from any thread, any number of times.
    public func kill() {
        self.state.withLock { $0.killRequested = true }
        child.signal(SIGKILL)
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
    /// descriptors. `O_CLOEXEC` keeps it out of children spawned by other threads; ours gets a copy as its stderr.
    private static func makeLogFile() throws(FFmpegError) -> Int32 {
        let path = "\(FileManager.default.temporaryDirectory.path)/kiln-ffmpeg-\(UUID().uuidString).log"
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FFmpegError.system("open \(path)", kind: .launch) }
        unlink(path)
        return descriptor
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
