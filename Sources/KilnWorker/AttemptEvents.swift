import KilnCore
import KilnJSON
import KilnQueue
import Locking

/// The progress and text events of one attempt, on their way to the job's stream: best-effort and coalesced, so that
/// Redis out of reach for a moment never fails a job that reports progress.
///
/// An event joins the ones not yet written: a progress replaces a progress waiting just before it, a delta joins the
/// text of one of the same answer. One caller at a time writes, in order, what is waiting; the others leave their
/// event to it and go on. A write that fails leaves the events waiting for the next one (or ``flush()``), and the
/// caller goes on as if it had been written: the attempt's listeners learn of it late, or, if Redis stays away until
/// the attempt ends, from its result alone. An attempt that lost its lease writes nothing more.
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

        /// `next` folded into this event, when one event can say both.
        func merged(with next: Event) -> Event? {
            switch (self, next) {
            case (.progress, .progress): next
            case (.delta(let text, let choice), .delta(let more, let nextChoice)) where choice == nextChoice:
                .delta(text: text + more, choice: choice)
            default: nil
            }
        }
    }

    private struct State {
        var waiting: [Event] = []
        /// A caller is writing: the others leave their events to it.
        var writing = false
        /// The attempt lost its lease: its events are fenced off.
        var fenced = false
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

    /// Adds `event` to those waiting and, unless another caller is writing, writes them.
    func send(_ event: Event) async {
        let mayWrite = state.withLock { state in
            guard !state.fenced else { return false }
            if let last = state.waiting.last, let merged = last.merged(with: event) {
                state.waiting[state.waiting.count - 1] = merged
            } else {
                state.waiting.append(event)
            }
            return Self.claimWriting(&state)
        }
        if mayWrite { await write() }
    }

    /// Writes what is waiting, unless another caller is writing: once more at the end of the attempt.
    func flush() async {
        if state.withLock({ Self.claimWriting(&$0) }) { await write() }
    }

    private static func claimWriting(_ state: inout State) -> Bool {
        guard !state.writing, !state.fenced, !state.waiting.isEmpty else { return false }
        state.writing = true
        return true
    }

    /// Writes the waiting events one by one, in order; one that fails goes back to the front, for the next writer.
    /// The event being written is out of the list, so nothing joins it on the way.
    private func write() async {
        while true {
            let next: Event? = state.withLock { state in
                guard !state.fenced, !state.waiting.isEmpty else {
                    state.writing = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            guard let event = next else { return }
            let written = event.written
            do {
                let appended = try await queue.emit(written.type, data: written.data, job: job, attempt: attempt, progress: written.progress)
                if !appended { state.withLock { $0.fenced = true } }
            } catch {
                state.withLock { state in
                    state.waiting.insert(event, at: 0)
                    state.writing = false
                }
                return
            }
        }
    }
}
