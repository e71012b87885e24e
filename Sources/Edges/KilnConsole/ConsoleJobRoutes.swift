import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore
import NIOCore

/// Jobs: the search, a job's page (attempts, timeline, error, result, artifacts), and its actions, cancel and retry
/// now; and the search's own action, cancelling every job it matches that has not ended.
struct ConsoleJobRoutes {
    let dependencies: ConsoleDependencies
    let configuration: ConsoleConfiguration
    let renderer: ConsoleRenderer

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console/jobs", use: search)
        router.post("/console/jobs/cancel-matching", use: cancelMatching)
        router.get("/console/jobs/:id", use: show)
        router.get("/console/jobs/:id/live", use: live)
        router.post("/console/jobs/:id/cancel", use: cancel)
        router.post("/console/jobs/:id/retry", use: retry)
        router.get("/console/jobs/:id/artifacts/:name", use: artifact)
    }

    struct SearchModel {
        let fields: [String: String]
        let states: [Option]
        /// The jobs that have not ended, when the search covers them.
        let live: LiveSection?
        /// The finished jobs, when the search covers them.
        let finished: FinishedSection?
        let viewer: Viewer
    }

    struct LiveSection {
        let counts: LiveJobs.Counts
        /// Whether the counts of running and waiting jobs are every tenant's, though the search names one.
        let countsAcrossTenants: Bool
        /// Whether those counts are shown: not to an operator of some tenants, since they count others' jobs.
        let showsSharedCounts: Bool
        let rows: [LiveJobRow]
        let next: String?
        /// The page stopped at its read limit before it was full: more may match further on.
        let stoppedEarly: Bool
        /// Whether to offer cancelling every match: to an operator, when something may match and the search names
        /// whose work it is (``ConsoleJobRoutes/cancelMatching(_:context:)``).
        let offersCancel: Bool
    }

    struct FinishedSection {
        let rows: [JobRow]
        let next: String?
    }

    struct Option {
        let value: String
        let selected: Bool
    }

    @Sendable func search(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        if let id = request.uri.queryParameters["id"].map(String.init)?.trimmingCharacters(in: .whitespaces), !id.isEmpty {
            guard let jobID = JobID(validating: id) else { throw ConsoleRefusal(.badRequest, "id: \(id) is not a job id") }
            return .redirect(to: "/console/jobs/\(jobID)")
        }
        let query = try JobFilterQuery(request, narrowing: session.narrowing)
        var live: LiveSection?
        if let filter = query.live, !query.pagesFinished {
            let jobs = dependencies.namespace.liveJobs
            let page = try await jobs.page(filter, after: query.liveCursor, limit: configuration.pageSize)
            let mayMatch = !page.jobs.isEmpty || page.next != nil
            live = LiveSection(
                counts: try await jobs.counts(tenant: filter.tenant), countsAcrossTenants: filter.tenant != nil,
                showsSharedCounts: !session.isScoped,
                rows: page.jobs.map { LiveJobRow($0, now: dependencies.clock()) },
                next: page.next.map { ConsoleInput.nextPage(query.fields, cursor: "live", $0.text) },
                stoppedEarly: page.next != nil && page.jobs.count < configuration.pageSize,
                offersCancel: session.operator.mayAct && mayMatch && Self.namesWhose(filter))
        }
        var finished: FinishedSection?
        if query.filter.state?.isTerminal ?? true, !query.pagesLive {
            let records = try await dependencies.search.jobs(query.filter, after: query.cursor, limit: configuration.pageSize)
            let last = records.count == configuration.pageSize ? records.last : nil
            finished = FinishedSection(
                rows: records.map(JobRow.init),
                next: last.map { ConsoleInput.nextPage(query.fields, after: JobSearch.Cursor(at: $0.createdAt, id: $0.id)) })
        }
        let model = SearchModel(
            fields: query.fields, states: JobState.allCases.map { Option(value: $0.rawValue, selected: query.fields["state"] == $0.rawValue) },
            live: live, finished: finished, viewer: Viewer(session))
        return renderer.page("jobs", title: "Jobs", model: model, session: session, request: request)
    }

    /// Every job that has not ended and that the search posted (its fields, as the jobs page has them) matches,
    /// cancelled after a confirmation that states how many: queued, held and waiting ones at once, running ones by
    /// telling their workers. In the background, ``BulkAction/batchSize`` at a time, audited when it starts and with
    /// the counts when it ends. A search must name a tenant, an identity or a kind: every tenant's work at once is not
    /// one click's.
    @Sendable func cancelMatching(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let form = try context.postedForm()
        let query = try JobFilterQuery(form, narrowing: session.narrowing)
        guard let filter = query.live else {
            throw ConsoleRefusal(.badRequest, "state: only a job that has not ended can be cancelled (queued, running, retrying or any)")
        }
        guard Self.namesWhose(filter) else {
            throw ConsoleRefusal(.badRequest, "name a tenant, an identity or a kind: the console does not cancel every tenant's work at once")
        }
        let filterQuery = ConsoleInput.queryString(query.fields)
        let back = "/console/jobs" + (filterQuery.isEmpty ? "" : "?" + filterQuery)
        let cancellation = LiveJobCancellation(dependencies: dependencies, context: context)
        let count = try await cancellation.count(filter)
        guard count.matches > 0 || !count.complete else { throw ConsoleRefusal(.conflict, "no job that has not ended matches \(query.described)") }
        let counted = LiveJobCancellation.phrase(count)
        guard ConsoleConfirmation.isConfirmed(form) else {
            let confirmation = ConsoleConfirmation(
                title: "Cancel every match?",
                question:
                    "Cancel \(count.complete ? "all " : "")\(counted) job(s) that have not ended matching \(query.described)? Queued and "
                    + "waiting ones end cancelled at once, running ones are told to stop; their apps see them cancelled.",
                button: "Cancel \(counted)", keep: "Keep them", back: back)
            return confirmation.page(
                action: "/console/jobs/cancel-matching", fields: query.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                renderer: renderer, session: session, request: request)
        }
        return try await cancellation.start(filter, action: "jobs.cancel-matching", on: query.described, counted: counted, returningTo: back)
    }

    /// Whether `filter` names whose work it is: a tenant, an identity or a kind.
    private static func namesWhose(_ filter: LiveJobs.Filter) -> Bool {
        filter.tenant != nil || filter.identity != nil || filter.kind != nil
    }

    @Sendable func show(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let id = try Self.jobID(context)
        let model = try await model(of: id, session: session)
        return renderer.page("job", title: "Job \(id)", model: model, session: session, request: request)
    }

    /// `text/event-stream` for a job's page while the job has not ended: a `job` event with the page's live part (its
    /// state, progress, actions, timeline and streamed text) now, again at each of the job's events (four times a
    /// second at most) and at least every ``ConsoleConfiguration/liveInterval``; then `done` once it has ended.
    @Sendable func live(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let id = try Self.jobID(context)
        let queue = dependencies.namespace.queue
        let interval = configuration.liveInterval
        // Followed from the stream's last event, read before the first rendering: the page shows what came before.
        let after = try await queue.lastEventID(of: id) ?? StreamID("0-0")
        // Read before the stream starts, so a job the operator may not see is not found.
        let first = try await model(of: id, session: session)
        return ConsoleServerSentEvent.response { writer in
            guard let after else { return }
            var model = first
            try await queue.followEvents(of: id, after: after) { events in
                while !Task.isCancelled {
                    try await ConsoleServerSentEvent.send("job", renderer.fragment("job-live", model), to: &writer)
                    if model.ended {
                        try await ConsoleServerSentEvent.send("done", "", to: &writer)
                        break
                    }
                    _ = try await events.next(timeout: interval)
                    try await Task.sleep(for: .milliseconds(250))
                    model = try await self.model(of: id, session: session)
                }
            }
        }
    }

    /// What the job's page shows, live from Redis while Redis holds the job, else from its record.
    private func model(of id: JobID, session: SignedIn) async throws -> JobPageModel {
        let live = try await dependencies.namespace.queue.snapshots([id]).first ?? nil
        let record = try await dependencies.search.job(id)
        guard let job = live?.record ?? record else { throw ConsoleRefusal(.notFound, "no job \(id) in Redis or PostgreSQL") }
        try session.require(job.tenant, "job \(id) in Redis or PostgreSQL")
        let events = live == nil ? [] : try await dependencies.namespace.queue.events(of: id, after: nil, limit: 500)
        let artifacts = try await dependencies.artifacts.list(job: id, tenant: job.tenant)
        let retention = dependencies.policies[job.tenant]?.retention
        let until = Int64(dependencies.clock().timeIntervalSince1970) + configuration.artifactLinkLifetime.components.seconds
        let resultsKept = retention.map { $0.results > .zero } ?? true
        return JobPageModel(
            job: job, live: live, recorded: record != nil, events: events, viewer: Viewer(session),
            input: ShownText(job.input, kept: retention.map { $0.inputs > .zero } ?? true), result: ShownText(job.result, kept: resultsKept),
            resultsKept: resultsKept,
            artifacts: artifacts.map { artifact in
                JobPageModel.ArtifactLink(
                    name: artifact.name, size: Formatting.size(artifact.size), contentType: artifact.contentType,
                    href: ArtifactLink.path(job: id, name: artifact.name, until: until, session: session))
            })
    }

    @Sendable func cancel(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let id = try Self.jobID(context)
        let session = try context.signedIn()
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "job.cancel", on: id.rawValue, returningTo: "/console/jobs/\(id)"
        ) {
            guard let job = try await dependencies.namespace.queue.snapshots([id]).first ?? nil else {
                throw ConsoleRefusal(.notFound, "job \(id) is no longer in Redis: only a queued or running job can be cancelled")
            }
            try session.require(job.tenant, "job \(id) in Redis")
            switch try await dependencies.namespace.queue.cancel(id, tenant: job.tenant, identity: job.identity) {
            case .cancelled: return "cancelled"
            case .requested: return "cancel requested: its worker stops within a second"
            case .alreadyFinished(let state): return "not cancelled: it had already ended \(state.rawValue)"
            case .notFound: throw ConsoleRefusal(.notFound, "job \(id) is no longer in Redis")
            }
        }
    }

    /// A job waiting out a retry's backoff runs now; a dead-lettered one is replayed with fresh attempts.
    @Sendable func retry(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let id = try Self.jobID(context)
        let session = try context.signedIn()
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "job.retry", on: id.rawValue, returningTo: "/console/jobs/\(id)"
        ) {
            guard let job = try await dependencies.namespace.queue.snapshots([id]).first ?? nil else {
                throw ConsoleRefusal(.notFound, "job \(id) is no longer in Redis")
            }
            try session.require(job.tenant, "job \(id) in Redis")
            switch job.state {
            case .dead, .failed:
                return try await dependencies.namespace.admin.replay(id) ? "replayed with fresh attempts" : "not replayed: no longer dead"
            case .retrying:
                return try await dependencies.namespace.admin.retryNow(id)
                    ? "due now: the next claim takes it" : "not moved: it was no longer waiting"
            default:
                throw ConsoleRefusal(.conflict, "job \(id) is \(job.state.rawValue): only a retrying, failed or dead job can be retried")
            }
        }
    }

    /// An artifact's bytes, through a link that works for this session and a few minutes only.
    @Sendable func artifact(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let id = try Self.jobID(context)
        let name = try context.parameters.require("name")
        let until = request.uri.queryParameters["until"].flatMap { Int64($0) } ?? 0
        let signature = request.uri.queryParameters["sig"].map(String.init) ?? ""
        guard until >= Int64(dependencies.clock().timeIntervalSince1970),
            ArtifactLink.isValid(signature, job: id, name: name, until: until, session: session)
        else { throw ConsoleRefusal(.gone, "this artifact link has expired: open the job's page again for a fresh one") }
        guard let job = try await dependencies.search.job(id),
            let found = try await dependencies.artifacts.find(job: id, tenant: job.tenant, name: name)
        else { throw ConsoleRefusal(.notFound, "job \(id) has no artifact \(name)") }
        try session.require(job.tenant, "job \(id) with an artifact \(name)")
        var headers = HTTPFields()
        headers[.contentType] = found.contentType
        headers[.contentLength] = String(found.size)
        headers[.cacheControl] = "no-store"
        // Saved, never shown in the console's origin: a document or picture a tenant's job made is not the console's page.
        headers[.contentDisposition] = Self.attachment(named: found.name)
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
        let chunks = try await dependencies.artifacts.chunks(of: found)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                for try await chunk in chunks { try await writer.write(ByteBuffer(bytes: chunk)) }
                try await writer.finish(nil)
            })
    }

    /// `Content-Disposition` for saving `name` (RFC 6266): a plain ASCII fallback, and the name itself percent-encoded.
    static func attachment(named name: String) -> String {
        let plain = String(
            name.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7f && !"\"\\;".unicodeScalars.contains($0) ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_"))) ?? plain
        return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(encoded)"
    }

    static func jobID(_ context: ConsoleRequestContext) throws -> JobID {
        let text = try context.parameters.require("id")
        guard let id = JobID(validating: text) else { throw ConsoleRefusal(.badRequest, "\(text) is not a job id") }
        return id
    }
}

/// A line of a list of jobs.
struct JobRow {
    let id: String
    /// The id's last eight characters, its random part, which tell jobs apart on a page and keep a row one line high on
    /// a phone (its first ones are the time it was made, the same for every job of a busy minute).
    let shortID: String
    let tenant: String
    let identity: String
    let kind: String
    let state: String
    let attempts: String
    let created: String
    let finished: String
    let error: String?

    /// A list's short form of `id`: its last eight characters.
    static func shortID(of id: JobID) -> String {
        String(id.rawValue.suffix(8))
    }

    init(_ record: JobRecord) {
        id = record.id.rawValue
        shortID = Self.shortID(of: record.id)
        tenant = record.tenant.rawValue
        identity = record.identity.rawValue
        kind = record.kind
        state = record.state.rawValue
        // Attempts go on across replays; each run of the job has maxAttempts tries.
        attempts = record.attempt > record.maxAttempts ? "\(record.attempt) (replayed)" : "\(record.attempt) of \(record.maxAttempts)"
        created = Formatting.time(record.createdAt)
        finished = Formatting.time(record.finishedAt)
        error = record.errorCode.map { code in record.errorMessage.map { "\(code): \($0)" } ?? code }
    }
}

/// Links to a job's artifacts that work only for the session that was shown them, and only until a time.
enum ArtifactLink {
    static func path(job: JobID, name: String, until: Int64, session: SignedIn) -> String {
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? name
        return "/console/jobs/\(job)/artifacts/\(encoded)?until=\(until)&sig=\(signature(job: job, name: name, until: until, session: session))"
    }

    static func isValid(_ signature: String, job: JobID, name: String, until: Int64, session: SignedIn) -> Bool {
        SessionSecret.matches(signature, Self.signature(job: job, name: name, until: until, session: session))
    }

    private static func signature(job: JobID, name: String, until: Int64, session: SignedIn) -> String {
        SessionSecret.derive(session.secret, purpose: "artifact \(job) \(name) \(until)")
    }
}
