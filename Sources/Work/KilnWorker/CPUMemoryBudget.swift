import Foundation

/// How many cpu-class jobs a worker runs at once within the memory it is given: each slot plans for the heaviest of
/// them, a chat export, so `--cpu` never promises more exports than the memory holds.
public struct CPUMemoryBudget: Sendable, Equatable {
    /// What one cpu-class job may take at its peak: a 1080×1920 chat export, its encoder and the exporting process
    /// together, with room for the encoder's growth when it falls behind under load (docs/chat-video.md has the peaks).
    public static let perJob: UInt64 = 400 * 1_048_576

    /// The bytes the worker's cpu-class jobs may use together.
    public var memory: UInt64

    public init(memory: UInt64) {
        self.memory = memory
    }

    /// The budget of the memory this process may use: its cgroup's limit (v2 `memory.max`, or v1's
    /// `memory.limit_in_bytes`) when there is one below the machine's memory, else the machine's memory.
    public static func granted() -> CPUMemoryBudget {
        let physical = ProcessInfo.processInfo.physicalMemory
        let limits = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"].compactMap { path in
            (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return CPUMemoryBudget(memory: min(limits.min() ?? physical, physical))
    }

    /// How many jobs run at once: the `requested` count, or fewer when the memory holds fewer; zero when it holds none.
    public func slots(requested: Int) -> Int {
        min(max(requested, 0), Int(clamping: memory / Self.perJob))
    }
}
