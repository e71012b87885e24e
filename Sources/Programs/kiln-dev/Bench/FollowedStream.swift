import Dispatch
import Foundation
import KilnCore
import KilnJSON
import KilnProviders

/// A followed job's event stream as its bytes reach the benchmark: each delta timed on the HTTP client's transfer
/// thread, as it is read from the socket. Timed in a task, each arrival would also wait for one of the event loops
/// that write the simulator's thousand streams, and that wait would count as Kiln's latency.
struct FollowedStream: Sendable {
    /// When the stream's first bytes arrived (monotonic nanoseconds); nil before.
    private(set) var openedAt: UInt64?
    private(set) var deltas: [ProviderBenchCommand.Arrival] = []
    /// An event's id is its stream entry's, which starts with Redis's clock in milliseconds when it appended the entry.
    private let wallMinusMonotonic: Int64
    private var parser = ServerSentEventParser()

    init() {
        wallMinusMonotonic = Int64(Date().timeIntervalSince1970 * 1e9) - Int64(DispatchTime.now().uptimeNanoseconds)
    }

    /// Reads the next bytes of the stream, arrived at `now`; false once the job's final status came.
    mutating func read(_ bytes: UnsafeRawBufferPointer, at now: UInt64) -> Bool {
        if openedAt == nil { openedAt = now }
        for event in parser.parse(bytes) {
            if event.event == "delta" {
                let text = JSONValue.parse(event.data)?["text"]?.stringValue ?? ""
                deltas.append(.init(at: now, appendedAt: event.id.flatMap(appendTime(ofEntry:)), textBytes: text.utf8.count))
            } else if event.event == "status",
                JSONValue.parse(event.data)?["state"]?.stringValue.flatMap(JobState.init(rawValue:))?.isTerminal == true
            {
                return false
            }
        }
        return true
    }

    /// When Redis appended a stream entry, from its id (`<milliseconds>-<sequence>`, by Redis's clock): the middle of
    /// that millisecond, on this process's monotonic clock.
    private func appendTime(ofEntry id: String) -> UInt64? {
        guard let milliseconds = id.split(separator: "-").first.flatMap({ Int64($0) }) else { return nil }
        let wall: Int64 = milliseconds * 1_000_000 + 500_000
        return UInt64(clamping: wall - wallMinusMonotonic)
    }
}
