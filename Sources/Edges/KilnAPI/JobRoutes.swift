import Foundation
import HTTPTypes
import Hummingbird
import KilnAdmission
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore
import Metrics
import NIOCore

/// `/v1/jobs`: submit, read, cancel, follow and download.
struct JobRoutes<Context: CallerRequestContext> {
    let dependencies: APIDependencies
    let configuration: APIConfiguration
    /// The event streams the node serves at once.
    let followers: FollowerCaps

    /// - Parameter v1: the authenticated `/v1` group.
    func register(on v1: some RouterMethods<Context>) {
        v1.post("jobs", use: submit)
        v1.get("jobs/{id}", use: show)
        v1.post("jobs/{id}/cancel", use: cancel)
        v1.get("jobs/{id}/events", use: events)
        v1.get("jobs/{id}/artifacts/{name}", use: artifact)
    }

    @Sendable func submit(_ request: Request, context: Context) async throws -> Response {
        var caller = try context.requireCaller()
        caller.address = clientAddress(request, context)
        var request = request
        let body = try await request.collectBody(within: configuration.maxJobBodyBytes)
        let submitted = try await JobSubmitter(dependencies: dependencies).submit(
            body: Array(buffer: body), caller: caller, idempotencyKey: request.headers[.idempotencyKey])
        let id = submitted.view.id
        return try .json(submitted.view, status: .accepted, location: "/v1/jobs/\(id)", headers: submitted.quotaHeaders)
    }

    /// The client's address: from the trusted proxy's header when one is configured, else the peer's.
    private func clientAddress(_ request: Request, _ context: Context) -> String? {
        if let name = configuration.clientAddressHeader, let header = HTTPField.Name(name) {
            return request.headers[header]?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        var view = try await find(try jobID(context), caller)
        view.artifacts = try await dependencies.artifacts.list(job: view.id, tenant: caller.tenant.id)
        return try .json(view, status: .ok)
    }

    @Sendable func cancel(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try jobID(context)
        switch try await dependencies.queue.cancel(id, tenant: caller.tenant.id, identity: caller.identity) {
        case .cancelled, .requested:
            return try .json(try await find(id, caller), status: .accepted)
        case .alreadyFinished(let state):
            throw Problem(.conflict, "job_finished", "the job has already finished: \(state.rawValue)")
        case .notFound:
            // Gone from Redis: finished long ago, or never this caller's.
            let view = try await find(id, caller)
            throw Problem(.conflict, "job_finished", "the job has already finished: \(view.state.rawValue)")
        }
    }

    /// Server-Sent Events: everything after `Last-Event-ID` (or from the start), then new events as they come,
    /// until the job finishes, until the client falls too far behind (it resumes after the last event it read), or
    /// until the node begins to shut down (the client resumes elsewhere).
    @Sendable func events(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try jobID(context)
        let view = try await find(id, caller)
        let queue = dependencies.queue
        let heartbeat = configuration.eventHeartbeat
        let lastEventID = request.headers[.lastEventID] ?? request.uri.queryParameters.get("last_event_id")
        let given = try lastEventID.map { text in
            guard let id = StreamID(text) else { throw Self.invalidLastEventID }
            return id
        }
        if let given, let end = try await queue.lastEventID(of: id) ?? (view.state.isTerminal ? nil : .start), given > end {
            // Past anything the stream holds: an id it never sent, after which nothing would ever come.
            throw Self.invalidLastEventID
        }
        let slot = try followers.admit(tenant: caller.tenant.id, identity: caller.identity)
        let finishedView = view.state.isTerminal ? view : nil
        let body = ResponseBody { writer in
            // The stream counts against the caps until it ends.
            defer { withExtendedLifetime(slot) {} }
            if let finished = finishedView, try await queue.events(of: id, after: lastEventID, limit: 1).isEmpty {
                // The stream expired with the job's Redis copy: say how it ended. Or the client reconnected after the
                // last event of a finished job: nothing more will come.
                if given == nil {
                    let data = try AnswerEncoding.text(of: FinishedJobEvent(finished))
                    try await writer.write(ByteBuffer(string: "event: status\ndata: \(data)\n\n"))
                }
            } else {
                try await Self.stream(queue, of: id, after: given ?? .start, heartbeat: heartbeat, to: &writer)
            }
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Writes the job's events after `given`, those the stream holds first (the follower reads them from Redis), then
    /// the rest as they come, until its last; returns early when the client fell behind or the node begins to shut down.
    private static func stream(
        _ queue: any SubmissionQueue, of id: JobID, after given: StreamID, heartbeat: Duration, to writer: inout any ResponseBodyWriter
    ) async throws {
        try await queue.followEvents(of: id, after: given) { follower in
            while true {
                let events: [JobEvent]
                do {
                    guard let next = try await unlessShuttingDown({ try await follower.next(timeout: heartbeat) }) else { return }
                    events = next
                } catch StreamFollowerError.fellBehind {
                    return
                }
                if events.isEmpty { try await writer.write(ByteBuffer(string: ": keep-alive\n\n")) }
                for event in events {
                    try await writer.write(Self.sse(event))
                    if event.isFinal { return }
                }
            }
        }
    }

    private static func sse(_ event: JobEvent) -> ByteBuffer {
        ByteBuffer(string: "id: \(event.id)\nevent: \(event.type)\ndata: \(event.data)\n\n")
    }

    private static var invalidLastEventID: Problem {
        Problem(.badRequest, "invalid_last_event_id", "Last-Event-ID must be an event id this stream sent")
    }

    @Sendable func artifact(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        let id = try jobID(context)
        _ = try await find(id, caller)
        let name = try context.parameters.require("name")
        guard let artifact = try await dependencies.artifacts.find(job: id, tenant: caller.tenant.id, name: name) else {
            throw Problem(.notFound, "artifact_not_found", "the job has no artifact named '\(name)'")
        }
        // Streamed: a node serving many videos at once holds a piece of each, not each whole.
        let chunks = try await dependencies.artifacts.chunks(of: artifact)
        var headers = HTTPFields()
        headers[.contentType] = artifact.contentType
        headers[.contentLength] = String(artifact.size)
        headers[.eTag] = "\"\(artifact.sha256)\""
        return Response(status: .ok, headers: headers, body: ResponseBody(asyncSequence: chunks.map { ByteBuffer(bytes: $0) }))
    }

    private func find(_ id: JobID, _ caller: Caller) async throws -> JobView {
        try await JobLookup(dependencies: dependencies).find(id, caller)
    }

    private func jobID(_ context: Context) throws -> JobID {
        guard let id = context.parameters.get("id").flatMap(JobID.init(validating:)) else { throw Problem.jobNotFound }
        return id
    }
}
