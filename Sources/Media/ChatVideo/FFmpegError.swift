/// A failure to run ffmpeg through ``FFmpegProcess``: it could not start, stopped reading its input, was killed, or
/// exited with an error.
///
/// When ffmpeg itself failed, ``log`` holds the last lines it wrote to stderr, which say why: an unknown option, an
/// encoder missing, a full disk.
public struct FFmpegError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is; match on it with `==`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Hashable {
            case launch
            case brokenPipe
            case killed
            case failed
            case system
        }

        private let base: Base
        private init(_ base: Base) {
            self.base = base
        }

        /// The program could not be started: not found on `PATH`, not executable, or no pipe or log file for it.
        public static let launch = Self(.launch)
        /// The program stopped reading its input before it was all written: it exited or crashed. ``FFmpegProcess/finish()``
        /// then reports how it ended.
        public static let brokenPipe = Self(.brokenPipe)
        /// ``FFmpegProcess/kill()`` stopped the program.
        public static let killed = Self(.killed)
        /// The program exited with a non-zero status, or a signal we did not send ended it.
        public static let failed = Self(.failed)
        /// A system call on the pipe or the child failed unexpectedly; ``FFmpegError/message`` names it and the errno.
        public static let system = Self(.system)

        public var description: String {
            switch self.base {
            case .launch: "launch"
            case .brokenPipe: "brokenPipe"
            case .killed: "killed"
            case .failed: "failed"
            case .system: "system"
            }
        }
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// What went wrong, in one sentence.
    public let message: String
    /// The program's exit status, when it exited by itself.
    public let exitStatus: Int?
    /// The signal that ended the program, when one did.
    public let signal: Int?
    /// The last lines the program wrote to stderr, oldest first; empty when it never ran or said nothing.
    public let log: [String]

    /// Creates an error; ``FFmpegProcess`` makes these, and tests of code that handles them may too.
    public init(kind: Kind, message: String, exitStatus: Int? = nil, signal: Int? = nil, log: [String] = []) {
        self.kind = kind
        self.message = message
        self.exitStatus = exitStatus
        self.signal = signal
        self.log = log
    }

    public var description: String {
        let log = self.log.isEmpty ? "" : "\n" + self.log.joined(separator: "\n")
        return "FFmpegError.\(self.kind): \(self.message)\(log)"
    }
}
