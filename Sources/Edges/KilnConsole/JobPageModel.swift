import Foundation
import KilnCore
import KilnQueue

/// What a job's page shows: where it stands (live from Redis while it is there, else its record), its attempts, its
/// timeline, its error, input, result and artifacts, and which actions apply.
struct JobPageModel {
    struct Event {
        let at: String
        let type: String
        let detail: String
    }

    struct ArtifactLink {
        let name: String
        let size: String
        let contentType: String
        let href: String
    }

    let id: String
    let tenant: String
    let identity: String
    let kind: String
    let priority: String
    let state: String
    let attempts: String
    let created: String
    let started: String
    let finished: String
    let error: String?
    let progress: String?
    /// The progress as a whole percent, for its bar.
    let percent: Int?
    /// The text streamed so far, while the job runs and its tenant keeps results.
    let streamed: String?
    /// Whether it has ended: its page then stops following it.
    let ended: Bool
    let recorded: Bool
    let inRedis: Bool
    let input: ShownText
    let result: ShownText
    let events: [Event]
    let artifacts: [ArtifactLink]
    let viewer: Viewer
    let cancellable: Bool
    let retryable: Bool

    init(
        job: JobRecord, live: JobSnapshot?, recorded: Bool, events: [JobEvent], viewer: Viewer, input: ShownText, result: ShownText,
        resultsKept: Bool, artifacts: [ArtifactLink]
    ) {
        id = job.id.rawValue
        tenant = job.tenant.rawValue
        identity = job.identity.rawValue
        kind = job.kind
        priority = job.priority.rawValue
        state = job.state.rawValue
        attempts =
            live.map { "attempt \($0.attempt), \($0.tries) of \($0.maxAttempts) tries spent" } ?? "attempt \(job.attempt) of \(job.maxAttempts)"
        created = Formatting.time(job.createdAt)
        started = Formatting.time(job.startedAt)
        finished = Formatting.time(job.finishedAt)
        error = job.errorCode.map { code in job.errorMessage.map { "\(code): \($0)" } ?? code }
        progress = live?.progress
        percent = Formatting.percent(progress: live?.progress)
        ended = live.map { $0.state.isTerminal } ?? true
        streamed = ended || !resultsKept ? nil : Self.streamedText(events)
        self.recorded = recorded
        inRedis = live != nil
        self.input = input
        self.result = result
        self.events = Self.timeline(events)
        self.artifacts = artifacts
        self.viewer = viewer
        cancellable = live.map { !$0.state.isTerminal } ?? false
        retryable = live.map { [.dead, .failed, .retrying].contains($0.state) } ?? false
    }

    /// The stream's events in order, each streamed delta folded into a count: the timeline shows what happened, not
    /// the text (which the result shows, when the tenant's retention allows).
    static func timeline(_ events: [JobEvent]) -> [Event] {
        var timeline: [Event] = []
        var deltas = 0
        func flushDeltas(at id: String) {
            guard deltas > 0 else { return }
            timeline.append(Event(at: time(of: id), type: "delta", detail: "\(deltas) streamed part\(deltas == 1 ? "" : "s")"))
            deltas = 0
        }
        var lastID = ""
        for event in events {
            if event.type == "delta" || event.type == "retract" {
                deltas += 1
            } else {
                flushDeltas(at: lastID)
                timeline.append(Event(at: time(of: event.id), type: event.type, detail: event.type == "result" ? "(the result, below)" : event.data))
            }
            lastID = event.id
        }
        flushDeltas(at: lastID)
        return timeline
    }

    /// The text the job's deltas streamed, since its last retraction (a retry, or the provider taking it back): the
    /// first answer's, where a job streams several. Nil when none streamed.
    static func streamedText(_ events: [JobEvent]) -> String? {
        var text: String?
        for event in events {
            switch event.type {
            case "retract": text = nil
            case "delta":
                guard let data = event.data.data(using: .utf8),
                    let delta = try? JSONSerialization.jsonObject(with: data) as? [String: Any], (delta["choice"] as? NSNumber)?.intValue ?? 0 == 0,
                    let piece = delta["text"] as? String
                else { continue }
                text = (text ?? "") + piece
            default: continue
            }
        }
        return text
    }

    /// A stream entry id's time (`<ms>-<seq>`).
    private static func time(of id: String) -> String {
        guard let milliseconds = id.split(separator: "-").first.flatMap({ Int64($0) }) else { return "—" }
        return Formatting.time(milliseconds: milliseconds)
    }
}
