import Dispatch
import KilnJSON
import KilnProviders
import Locking

/// What the in-process simulator wrote to each streamed answer, and when (monotonic nanoseconds).
final class StreamWriteLog: Sendable {
    private let writes = Locked<[String: [(at: UInt64, bytes: [UInt8])]]>([:])
    private let requests = Locked<[String: String]>([:])

    /// Notes the request a streamed answer answers.
    func recordStart(_ requestID: String, _ requestBody: [UInt8]) {
        requests.withLock { $0[requestID] = String(decoding: requestBody, as: UTF8.self) }
    }

    /// The answer to the request whose body holds `needle`.
    func requestID(answering needle: String) -> String? {
        requests.withLock { requests in requests.first { $0.value.contains(needle) }?.key }
    }

    /// When each text delta of one answer was written, with the text it carried, in order.
    func deltas(_ requestID: String) -> [(at: UInt64, text: String)] {
        let writes = self.writes.withLock { $0[requestID] ?? [] }
        var parser = ServerSentEventParser()
        return writes.flatMap { write in
            parser.parse(write.bytes).filter { $0.event == "content_block_delta" }.map { event in
                let delta = JSONValue.parse(event.data)?["delta"]
                return (write.at, delta?["text"]?.stringValue ?? delta?["partial_json"]?.stringValue ?? "")
            }
        }
    }

    func record(_ requestID: String, _ bytes: [UInt8]) {
        let now = DispatchTime.now().uptimeNanoseconds
        self.writes.withLock { $0[requestID, default: []].append((now, bytes)) }
    }

    /// When each text delta of one answer was written, in order.
    func deltaTimes(_ requestID: String) -> [UInt64] {
        deltas(requestID).map(\.at)
    }

    func deltaCount() -> Int {
        self.writes.withLock { $0.keys.map { $0 } }.reduce(0) { $0 + self.deltaTimes($1).count }
    }

    /// From the last answer's first write to the first answer's last write: while every answer was being written, after
    /// the calls started and before any ended. nil when the first ended before the last started.
    func allOpen() -> ClosedRange<UInt64>? {
        let (firsts, lasts) = self.writes.withLock { answers in
            (answers.values.compactMap { $0.first?.at }, answers.values.compactMap { $0.last?.at })
        }
        guard let lastStart = firsts.max(), let firstEnd = lasts.min(), lastStart <= firstEnd else { return nil }
        return lastStart...firstEnd
    }

    /// The most answers that were being written at the same moment, from each answer's first to its last write.
    func mostConcurrent() -> Int {
        var edges: [(at: UInt64, change: Int)] = []
        self.writes.withLock { answers in
            for writes in answers.values {
                guard let first = writes.first?.at, let last = writes.last?.at else { continue }
                edges.append((first, 1))
                edges.append((last, -1))
            }
        }
        // An answer that starts when another ends overlaps it: openings sort first.
        edges.sort { $0.at != $1.at ? $0.at < $1.at : $0.change > $1.change }
        var open = 0
        var most = 0
        for edge in edges {
            open += edge.change
            most = max(most, open)
        }
        return most
    }
}
