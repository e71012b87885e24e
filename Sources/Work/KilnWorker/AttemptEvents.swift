import KilnCore
import KilnJSON
import KilnQueue
import Locking

/// The progress and text events of one attempt, on their way to the job's stream: best-effort and coalesced, so that
/// Redis out of reach for a moment never fails a job, and sending never waits.
///
/// Events are written one at a time, in order, each from the previous one's answer on the Redis connection's event
/// loop, so a streaming handler hands its text over without waking a task. Meanwhile a delta joins the text of the same
/// answer waiting just before it, and once ``crowded`` events wait a progress replaces a progress waiting just before
/// it, so the backlog stays bounded and the latest report still goes out. A failed write leaves the events waiting for
/// the next ``send(_:)`` or ``flush()`` and the handler goes on; listeners learn of them late, or from the result alone.
/// The event that failed goes again as it was, alone and under the number it was sent with, which Redis appends once:
/// it may have been appended all the same (its answer lost), and no listener reads its text twice. After a lost lease
/// nothing more is written.
final class AttemptEvents: Sendable {
    enum Event: Sendable {
        case progress(fraction: Double, message: String?)
        case delta(text: String, choice: Int)
        case retract(reason: String)

        /// The event's type, data and, for progress, what the job's hash keeps as its progress. The data is written
        /// from its members, without a dictionary: a streaming call writes one for every delta.
        var written: (type: String, data: String, progress: String?) {
            switch self {
            case .progress(let fraction, let message):
                var members: [(key: String, value: JSONValue)] = [("fraction", .number(min(max(fraction, 0), 1)))]
                if let message { members.append(("message", .string(message))) }
                let data = JSONValue.canonicalJSON(ofObject: members)
                return ("progress", data, data)
            case .delta(let text, let choice):
                var members: [(key: String, value: JSONValue)] = [("text", .string(text))]
                if choice > 0 { members.append(("choice", .number(Double(choice)))) }
                return ("delta", JSONValue.canonicalJSON(ofObject: members), nil)
            case .retract(let reason):
                return ("retract", JSONValue.canonicalJSON(ofObject: [("reason", .string(reason))]), nil)
            }
        }

        /// `next` folded into this event, when one event can say both: the text of one answer joined, or, when too many
        /// events wait (`crowded`), the later progress instead of the earlier.
        func merged(with next: Event, crowded: Bool) -> Event? {
            switch (self, next) {
            case (.progress, .progress) where crowded: next
            case (.delta(let text, let choice), .delta(let more, let nextChoice)) where choice == nextChoice:
                .delta(text: text + more, choice: choice)
            default: nil
            }
        }
    }

    /// How many events may wait before a progress report replaces the one before it.
    static let crowded = 16

    /// An event waiting to be written, with its number once it was sent.
    private struct Waiting {
        var event: Event
        /// Set by its first write: a write that failed may have been appended, so the event goes again as it was.
        var sequence: Int?
    }

    private struct State {
        var waiting: [Waiting] = []
        /// The number the last event sent took: an attempt's events are numbered from 1 in the order they are written.
        var lastSequence = 0
        /// An event is being written: the others wait for its answer.
        var writing = false
        /// The attempt lost its lease: its events are fenced off.
        var fenced = false
        /// ``flush()`` callers waiting for the writes to stop.
        var flushing: [CheckedContinuation<Void, Never>] = []
    }

    private let queue: any WorkSource
    private let job: JobID
    private let attempt: Int
    private let state = Locked(State())

    init(queue: any WorkSource, job: JobID, attempt: Int) {
        self.queue = queue
        self.job = job
        self.attempt = attempt
    }

    /// Adds `event` to those waiting and, unless one is being written, starts writing them.
    func send(_ event: Event) {
        let first = state.withLock { state -> Numbered? in
            guard !state.fenced else { return nil }
            if let last = state.waiting.last, last.sequence == nil,
                let merged = last.event.merged(with: event, crowded: state.waiting.count >= Self.crowded)
            {
                state.waiting[state.waiting.count - 1].event = merged
            } else {
                state.waiting.append(Waiting(event: event))
            }
            return Self.startWriting(&state)
        }
        if let first { write(first) }
    }

    /// Writes what is waiting, and returns once nothing is being written: at the end of the attempt, so that what it
    /// streamed goes before its last status. Events still waiting then met a failed write.
    func flush() async {
        await withCheckedContinuation { continuation in
            let first = state.withLock { state -> Numbered? in
                let first = Self.startWriting(&state)
                if state.writing {
                    state.flushing.append(continuation)
                } else {
                    continuation.resume()
                }
                return first
            }
            if let first { write(first) }
        }
    }

    /// An event on its way, with its number.
    private typealias Numbered = (event: Event, sequence: Int)

    /// The first waiting event, taken out to be written and numbered if it never was, when none is being written.
    private static func startWriting(_ state: inout State) -> Numbered? {
        guard !state.writing, !state.fenced, !state.waiting.isEmpty else { return nil }
        state.writing = true
        let first = state.waiting.removeFirst()
        if let sequence = first.sequence { return (first.event, sequence) }
        state.lastSequence += 1
        return (first.event, state.lastSequence)
    }

    /// Writes `numbered`, then the next one waiting. The event being written is out of the list, so nothing joins it on
    /// the way; one that fails goes back to the front, with its number, and the writing stops until the next
    /// ``send(_:)`` or ``flush()``.
    private func write(_ numbered: Numbered) {
        let written = numbered.event.written
        queue.emit(written.type, data: written.data, job: job, attempt: attempt, sequence: numbered.sequence, progress: written.progress) {
            outcome in
            let (next, flushed) = self.state.withLock { state -> (Numbered?, [CheckedContinuation<Void, Never>]) in
                switch outcome {
                case .success(let appended): state.fenced = state.fenced || !appended
                case .failure: state.waiting.insert(Waiting(event: numbered.event, sequence: numbered.sequence), at: 0)
                }
                state.writing = false
                if case .success = outcome, let next = Self.startWriting(&state) { return (next, []) }
                defer { state.flushing.removeAll() }
                return (nil, state.flushing)
            }
            for waiter in flushed { waiter.resume() }
            if let next { self.write(next) }
        }
    }
}
