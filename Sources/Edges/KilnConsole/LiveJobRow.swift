import Foundation
import KilnCore
import KilnQueue

/// A line of the list of jobs that have not ended: where each is, its worker and lease or when it falls due, and its
/// progress.
struct LiveJobRow {
    let id: String
    /// The id's random part, as ``JobRow`` shows it.
    let shortID: String
    let tenant: String
    let identity: String
    let kind: String
    let state: String
    /// running, queued, held (by its identity's cap) or waiting (delayed, or a retry's backoff).
    let place: String
    let attempts: String
    let created: String
    /// The worker running it, and until when its lease holds; or when it falls due.
    let detail: String
    /// Its progress as a whole percent, when it reported one.
    let percent: Int?

    init(_ job: LiveJobs.Job, now: Date) {
        id = job.id.rawValue
        shortID = JobRow.shortID(of: job.id)
        tenant = job.tenant.rawValue
        identity = job.identity.rawValue
        kind = job.kind
        state = job.state.rawValue
        place = job.place.rawValue
        attempts = "\(job.attempt) of \(job.maxAttempts)"
        created = Formatting.time(milliseconds: job.createdAtMilliseconds)
        let nowMilliseconds = Int64(now.timeIntervalSince1970 * 1000)
        switch job.place {
        case .running:
            let lease = job.untilMilliseconds.map { "lease \(Formatting.wait(milliseconds: $0 - nowMilliseconds)) more" }
            detail = [job.worker, lease].compactMap { $0 }.joined(separator: ", ")
        case .waiting: detail = job.untilMilliseconds.map { "due in \(Formatting.wait(milliseconds: $0 - nowMilliseconds))" } ?? ""
        case .queued, .held: detail = ""
        }
        percent = Formatting.percent(progress: job.progress)
    }
}
