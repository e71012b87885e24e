import DocumentInputs
import Foundation
import HTTPTypes
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import Logging
import MCP
import NIOCore

/// What one MCP request's tools and resources act for: the caller its bearer token names, the session and request it
/// came in, and the exchange its progress goes out on.
struct MCPCall {
    let dependencies: APIDependencies
    let caller: Caller
    let session: String
    /// The JSON-RPC id of the request, as text.
    let requestID: String
    let exchange: MCPExchange
    let logger: Logger

    private var desk: CampaignDesk { CampaignDesk(dependencies: dependencies) }

    /// `tools/call`. Kiln's refusals (quotas, a campaign not found, bad arguments) are tool errors carrying the same
    /// problem as the HTTP API's, with `retry_after` in seconds when waiting helps; an unknown tool is a protocol error.
    func callTool(_ parameters: CallTool.Parameters) async throws -> CallTool.Result {
        let arguments = try JSONEncoder().encode(parameters.arguments ?? [:])
        let progress = parameters._meta?.progressToken
        do {
            switch parameters.name {
            case "create_campaign":
                let opening = try CampaignBodies.decode(CampaignOpening.self, from: arguments)
                let key = try CampaignBodies.decode(IdempotentArguments.self, from: arguments).idempotencyKey
                let (campaign, job) = try await desk.open(opening, caller: caller, idempotencyKey: key)
                return try await played(campaign.id, job: job.id, progress: progress)
            case "process_action":
                let turn = try CampaignBodies.decode(TurnArguments.self, from: arguments)
                let (_, job) = try await desk.play(turn.action, in: try turn.campaign(), caller: caller, idempotencyKey: turn.idempotencyKey)
                return try await played(try turn.campaign(), job: job.id, progress: progress)
            case "get_campaign_state":
                let id = try CampaignBodies.decode(CampaignArguments.self, from: arguments).campaign()
                let campaign = try await desk.campaign(id, for: caller)
                let recent = try await desk.scenes(of: campaign, from: max(1, campaign.sceneCount - 4))
                return try Self.result(CampaignView(campaign, scenes: recent), text: "\(campaign.title): scene \(campaign.sceneCount)")
            case "list_campaigns":
                let page = try CampaignBodies.decode(ListArguments.self, from: arguments)
                let (campaigns, next) = try await desk.page(for: caller, cursor: page.cursor, limit: page.limit ?? 20)
                return try Self.result(
                    CampaignListAnswer(campaigns: campaigns.map { CampaignView($0) }, nextCursor: next), text: "\(campaigns.count) campaigns")
            case "update_campaign":
                let change = try CampaignBodies.decode(UpdateArguments.self, from: arguments)
                try CampaignChange(title: change.title, settings: change.settings).validate()
                let campaign = try await desk.update(try change.campaign(), title: change.title, settings: change.settings, for: caller)
                return try Self.result(CampaignView(campaign), text: "\(campaign.title) updated")
            case "export_campaign":
                let export = try CampaignBodies.decode(ExportArguments.self, from: arguments)
                let id = try export.campaign()
                let job = try await desk.export(id, format: export.format, caller: caller, idempotencyKey: nil)
                return try await exported(id, job: job.id, progress: progress)
            default:
                throw MCPError.invalidParams("Unknown tool: \(parameters.name)")
            }
        } catch let error as MCPError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            return try Self.refusal(ProblemMiddleware<APIRequestContext>.problem(for: error, logger: logger))
        }
    }

    /// Follows the campaign's opening or turn job to its end, streaming its narrative as progress, then applies its
    /// scene and returns the scene and the campaign.
    private func played(_ id: CampaignID, job: JobID, progress: ProgressToken?) async throws -> CallTool.Result {
        let finished = try await follow(job, progress: progress)
        let campaign = try await desk.campaign(id, for: caller)
        guard finished == .succeeded, let scene = try await desk.scenes(of: campaign, from: campaign.sceneCount).first else {
            throw Problem(.conflict, "turn_failed", campaign.lastError ?? "the turn \(finished.rawValue)")
        }
        let view = CampaignView.Scene(scene)
        return try Self.result(PlayedScene(campaign: CampaignView(campaign), scene: view), text: scene.narrative)
    }

    /// Follows the export job to its end, then links its document.
    private func exported(_ id: CampaignID, job: JobID, progress: ProgressToken?) async throws -> CallTool.Result {
        let finished = try await follow(job, progress: progress)
        guard finished == .succeeded, let artifact = try await dependencies.artifacts.list(job: job, tenant: caller.tenant.id).first else {
            throw Problem(.conflict, "export_failed", "the export \(finished.rawValue)")
        }
        let uri = CampaignResources.exportURI(campaign: id, job: job, name: artifact.name)
        let link = ExportLink(jobID: job, uri: uri, contentType: artifact.contentType, size: artifact.size)
        let structured = try Value(link)
        return try CallTool.Result(
            content: [
                .resourceLink(uri: uri, name: artifact.name, description: "The exported campaign", mimeType: artifact.contentType),
                .text(text: try AnswerEncoding.text(of: link), annotations: nil, _meta: nil),
            ],
            structuredContent: structured)
    }

    /// Relays the job's events until it ends: each `delta` of its text as a progress notification carrying the text,
    /// a `retract` as one carrying the empty text (what streamed so far is withdrawn). A cancelled job ends the
    /// request without a response, as MCP wants for a cancelled request.
    /// - Returns: how the job ended.
    private func follow(_ job: JobID, progress token: ProgressToken?) async throws -> JobState {
        try await dependencies.mcpSessions.bind(request: requestID, session: session, to: job)
        var cursor = StreamID.start
        var sent = 0.0
        while true {
            do {
                return try await dependencies.queue.followEvents(of: job, after: cursor) { events in
                    while true {
                        let batch = try await events.next(timeout: .seconds(15))
                        if batch.isEmpty {
                            // Quiet for a while: perhaps it ended and its stream is gone already.
                            let view = try await JobLookup(dependencies: dependencies).find(job, caller)
                            if view.state.isTerminal { return view.state }
                        }
                        for event in batch {
                            cursor = StreamID(event.id) ?? cursor
                            if let token, let text = Self.streamedText(event) {
                                sent += 1
                                try await notify(ProgressNotification.message(.init(progressToken: token, progress: sent, message: text)))
                            }
                            guard event.isFinal else { continue }
                            let state = JSONValue.parse(event.data)?["state"]?.stringValue.flatMap(JobState.init(rawValue:)) ?? .failed
                            if state == .cancelled {
                                await exchange.end()
                                throw CancellationError()
                            }
                            return state
                        }
                    }
                }
            } catch StreamFollowerError.fellBehind {
                // Further behind than the node keeps for one follower: read on from Redis.
                continue
            }
        }
    }

    private func notify(_ message: Message<ProgressNotification>) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        await exchange.send(try encoder.encode(message))
    }

    /// A `delta` event's text, or the empty text of a `retract`.
    private static func streamedText(_ event: JobEvent) -> String? {
        switch event.type {
        case "delta": JSONValue.parse(event.data)?["text"]?.stringValue
        case "retract": ""
        default: nil
        }
    }

    /// A tool's success: the answer as structured content, and as JSON text too for clients that read only text.
    static func result(_ answer: some Encodable, text: String) throws -> CallTool.Result {
        let json = try AnswerEncoding.text(of: answer)
        let structured = try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        return try CallTool.Result(
            content: [.text(text: text, annotations: nil, _meta: nil), .text(text: json, annotations: nil, _meta: nil)],
            structuredContent: structured)
    }

    /// A refusal as a tool error: the HTTP API's problem, with `retry_after` in seconds when waiting helps.
    static func refusal(_ problem: Problem) throws -> CallTool.Result {
        guard case .object(var members)? = JSONValue.parse(try AnswerEncoding.text(of: problem)) else { return CallTool.Result(isError: true) }
        if let seconds = problem.headers[.retryAfter].flatMap(Int.init) { members["retry_after"] = .number(Double(seconds)) }
        let json = JSONValue.object(members).canonicalJSON()
        return try CallTool.Result(
            content: [.text(text: "\(problem.code): \(problem.detail)", annotations: nil, _meta: nil)],
            structuredContent: try JSONDecoder().decode(Value.self, from: Data(json.utf8)), isError: true)
    }
}

/// `create_campaign`'s and `process_action`'s answer.
private struct PlayedScene: Encodable {
    let campaign: CampaignView
    let scene: CampaignView.Scene
}

/// `export_campaign`'s answer: where to read the document (`resources/read`).
private struct ExportLink: Codable {
    let jobID: JobID
    let uri: String
    let contentType: String
    let size: Int

    enum CodingKeys: String, CodingKey {
        case uri, size
        case jobID = "job_id"
        case contentType = "content_type"
    }
}

private struct IdempotentArguments: Decodable {
    let idempotencyKey: String?

    enum CodingKeys: String, CodingKey {
        case idempotencyKey = "idempotency_key"
    }
}

/// Arguments naming a campaign.
private protocol CampaignArgument {
    var campaignID: String { get }
}

extension CampaignArgument {
    func campaign() throws -> CampaignID {
        guard let id = CampaignID(validating: campaignID) else { throw Problem.campaignNotFound }
        return id
    }
}

private struct CampaignArguments: Decodable, CampaignArgument {
    let campaignID: String

    enum CodingKeys: String, CodingKey {
        case campaignID = "campaign_id"
    }
}

private struct TurnArguments: Decodable, CampaignArgument {
    let campaignID: String
    let action: String
    let idempotencyKey: String?

    enum CodingKeys: String, CodingKey {
        case action
        case campaignID = "campaign_id"
        case idempotencyKey = "idempotency_key"
    }
}

private struct UpdateArguments: Decodable, CampaignArgument {
    let campaignID: String
    let title: String?
    let settings: JSONValue?

    enum CodingKeys: String, CodingKey {
        case title, settings
        case campaignID = "campaign_id"
    }
}

private struct ExportArguments: Decodable, CampaignArgument {
    let campaignID: String
    let format: DocumentFormat

    enum CodingKeys: String, CodingKey {
        case format
        case campaignID = "campaign_id"
    }
}

private struct ListArguments: Decodable {
    let cursor: String?
    let limit: Int?
}
