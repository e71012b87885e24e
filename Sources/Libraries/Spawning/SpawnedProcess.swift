import CSpawning
public import Foundation
public import Glibc
import Locking

/// A program started with `posix_spawn`: what Kiln and its tests use instead of Foundation's `Process`, whose `run()`
/// on Linux (Swift 6.3.1) copies 256 bytes of each `/proc/self/fd` entry and crashes now and then in a process with
/// more than about 1,300 descriptors open, as the integration tests' process has (swift-corelibs-foundation#5472).
///
/// The child keeps exactly its three standard streams (every other descriptor is closed in it), starts with default
/// signal handling and nothing blocked, and leads a process group of its own, as with `Process`.
///
/// ``signal(_:)`` may come from any thread at any time: a pid is only released by reaping, which takes the same lock,
/// so a signal can never reach a process that has since taken the same pid. Dropping the last reference kills and
/// reaps a child that is still running.
public final class SpawnedProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// The same as ours.
        case inherit
        /// `/dev/null`.
        case null
        /// A descriptor of ours, for example an open file; the child gets a copy, the caller keeps and closes it.
        case descriptor(Int32)
        /// A new pipe: our end is ``SpawnedProcess/input`` for stdin, ``SpawnedProcess/output`` for stdout (stderr cannot
        /// be one: a file or `/dev/null` serves it).
        case pipe
    }

    /// How the child ended, read when it was reaped.
    public struct Termination: Sendable {
        /// The raw status from `wait4`.
        public let status: Int32
        /// The most memory it had resident at once.
        public let peakMemoryBytes: Int
        /// User plus system CPU time, over all its threads.
        public let cpuSeconds: Double

        /// The exit status, or nil when a signal ended it.
        public var exitStatus: Int32? { status & 0x7F == 0 ? (status >> 8) & 0xFF : nil }
        /// The signal that ended it, or nil when it exited.
        public var signal: Int32? { status & 0x7F == 0 ? nil : status & 0x7F }
        /// It exited with status 0.
        public var succeeded: Bool { status == 0 }
        /// The status as a shell gives it: the exit status, or 128 plus the number of the signal that ended it.
        public var shellStatus: Int32 { exitStatus ?? 128 + (signal ?? 0) }
    }

    public let pid: Glibc.pid_t
    /// Our end of the child's stdin when it is ``Stream/pipe``; closing it gives the child end of file.
    public let input: FileHandle?
    /// Our end of the child's stdout when it is ``Stream/pipe``.
    public let output: FileHandle?
    /// Set once the child is reaped; its pid may belong to another process from then on.
    private let termination = Locked<Termination?>(nil)

    /// Starts `command[0]`, looked up on `PATH` unless it contains a slash, with the rest as its arguments, in
    /// `environment` (ours when nil).
    public init(
        _ command: [String], environment: [String: String]? = nil, stdin: Stream = .null, stdout: Stream = .inherit,
        stderr: Stream = .inherit
    ) throws(SpawnError) {
        guard let executable = command.first else { throw SpawnError("no program to start") }
        if case .pipe = stderr { throw SpawnError("stderr cannot be a pipe: give it a file") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The ends the child gets are closed here once it has its copies (dup2 clears close-on-exec on the copy).
        var childEnds: [Int32] = []
        defer { childEnds.forEach { close($0) } }
        var ourEnds: [Int32: Int32] = [:]
        do throws(SpawnError) {
            for (target, stream) in [(STDIN_FILENO, stdin), (STDOUT_FILENO, stdout), (STDERR_FILENO, stderr)] {
                switch stream {
                case .inherit:
                    break
                case .null:
                    posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
                case .descriptor(let descriptor):
                    posix_spawn_file_actions_adddup2(&actions, descriptor, target)
                case .pipe:
                    var ends: [Int32] = [-1, -1]
                    guard cspawning_pipe_cloexec(&ends) == 0 else { throw SpawnError.system("pipe2") }
                    let (childEnd, ourEnd) = target == STDIN_FILENO ? (ends[0], ends[1]) : (ends[1], ends[0])
                    childEnds.append(childEnd)
                    ourEnds[target] = ourEnd
                    posix_spawn_file_actions_adddup2(&actions, childEnd, target)
                }
            }
            // After the dup2s, which target 0, 1 and 2 only.
            cspawning_addclosefrom(&actions, 3)
            pid = try Self.spawn(executable: executable, command: command, environment: environment, actions: &actions)
        } catch {
            ourEnds.values.forEach { close($0) }
            throw error
        }
        input = ourEnds[STDIN_FILENO].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        output = ourEnds[STDOUT_FILENO].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    deinit {
        termination.withLock { termination in
            guard termination == nil else { return }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while wait4(pid, &status, 0, nil) < 0 && errno == EINTR {}
        }
    }

    /// Sends `signal` unless the child has been reaped.
    public func signal(_ signal: Int32) {
        termination.withLock { termination in
            // Under the lock, `termination == nil` means the pid is still ours: reaping takes this lock too.
            guard termination == nil else { return }
            kill(pid, signal)
        }
    }

    /// Whether the child is still running; reaps it when it has exited. Never blocks.
    public var isRunning: Bool {
        var info = siginfo_t()
        guard termination.withLock({ $0 == nil }) else { return false }
        // WNOWAIT leaves an exited child a zombie, which keeps its pid until ``reap()`` under the lock.
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid else { return true }
        reap()
        return false
    }

    /// Waits for the child to exit, blocking this thread, and reaps it.
    public func waitUntilExit() -> Termination {
        var info = siginfo_t()
        while termination.withLock({ $0 == nil }), waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        return reap()
    }

    /// Waits for the child to exit without blocking a thread (it looks every 20 ms), and reaps it.
    public func exit() async -> Termination {
        while isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        return reap()
    }

    /// Reaps the exited child, once; later calls give the same answer.
    @discardableResult
    private func reap() -> Termination {
        termination.withLock { termination in
            if let termination { return termination }
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
            let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
            // Linux counts ru_maxrss in kilobytes.
            let reaped = Termination(status: status, peakMemoryBytes: usage.ru_maxrss * 1024, cpuSeconds: cpu)
            termination = reaped
            return reaped
        }
    }

    private static func spawn(
        executable: String, command: [String], environment: [String: String]?, actions: inout posix_spawn_file_actions_t
    ) throws(SpawnError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default handling of every signal and none blocked, whatever we did to our own: an inherited "ignore SIGPIPE"
        // or a blocked SIGTERM would change how the child ends.
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let pairs = environment ?? ProcessInfo.processInfo.environment
        let envp = pairs.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }

        var pid: pid_t = 0
        let result = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError("cannot start \(executable): \(String(cString: strerror(result)))") }
        return pid
    }
}
