import Foundation

/// Memory that processes on this machine hold, from `/proc`.
enum ProcessMemory {
    /// Bytes the process has resident (`VmRSS`), or 0 when it is gone.
    static func residentBytes(pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1024
    }
}
