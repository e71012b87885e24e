import Foundation

/// How the console writes times, waits and sizes: short, the same on every page.
enum Formatting {
    /// `2026-11-26 06:13:44Z`.
    static func time(_ date: Date?) -> String {
        guard let date else { return "—" }
        return date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon))
            .replacingOccurrences(of: "T", with: " ")
    }

    /// A time given in milliseconds since 1970 (Redis's clock, a stream entry's id).
    static func time(milliseconds: Int64) -> String {
        time(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// `850 ms`, `12 s`, `3 min`, `2 h`, `4 d`.
    static func wait(milliseconds: Int64?) -> String {
        guard let milliseconds else { return "—" }
        switch milliseconds {
        case ..<1000: return "\(max(milliseconds, 0)) ms"
        case ..<120_000: return "\(milliseconds / 1000) s"
        case ..<7_200_000: return "\(milliseconds / 60_000) min"
        case ..<172_800_000: return "\(milliseconds / 3_600_000) h"
        default: return "\(milliseconds / 86_400_000) d"
        }
    }

    /// A job's progress as a whole percent, from its JSON (`{"fraction": 0.42, …}`); nil when it says none.
    static func percent(progress json: String?) -> Int? {
        guard let data = json?.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let fraction = (object["fraction"] as? NSNumber)?.doubleValue, fraction.isFinite
        else { return nil }
        return Int((min(max(fraction, 0), 1) * 100).rounded())
    }

    /// `512 B`, `3.4 KB`, `12.0 MB`.
    static func size(_ bytes: Int) -> String {
        switch bytes {
        case ..<1024: return "\(bytes) B"
        case ..<(1024 * 1024): return String(format: "%.1f KB", Double(bytes) / 1024)
        default: return String(format: "%.1f MB", Double(bytes) / 1_048_576)
        }
    }
}
