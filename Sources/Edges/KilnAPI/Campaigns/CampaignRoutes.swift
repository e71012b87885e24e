import DocumentInputs
import Foundation
import Hummingbird
import KilnCore
import KilnJSON
import KilnStore
import NIOCore

/// `/v1/campaigns`: WorldArchitect's campaigns over plain HTTP, the same ones its MCP tools play (docs/mcp.md). Opening
/// and each turn answer 202 with the job to follow on `/v1/jobs/{id}/events`; the campaign applies the job's scene when
/// it finishes.
struct CampaignRoutes<Context: CallerRequestContext> {
    let dependencies: APIDependencies
    let configuration: APIConfiguration

    /// - Parameter v1: the authenticated `/v1` group.
    func register(on v1: some RouterMethods<Context>) {
        v1.post("campaigns", use: open)
        v1.get("campaigns", use: list)
        v1.get("campaigns/{id}", use: show)
        v1.patch("campaigns/{id}", use: update)
        v1.post("campaigns/{id}/turns", use: play)
        v1.post("campaigns/{id}/exports", use: export)
    }

    private var desk: CampaignDesk { CampaignDesk(dependencies: dependencies) }

    @Sendable func open(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        var request = request
        let opening = try await decode(CampaignOpening.self, from: &request)
        let (campaign, job) = try await desk.open(opening, caller: caller, idempotencyKey: request.headers[.idempotencyKey])
        return try .json(
            CampaignJobAnswer(campaign: CampaignView(campaign), job: job), status: .accepted, location: "/v1/campaigns/\(campaign.id)")
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        let query = request.uri.queryParameters
        // A limit that is not a whole number is out of range too.
        let limit = query.get("limit").map { Int($0) ?? 0 } ?? 20
        let (campaigns, next) = try await desk.page(for: caller, cursor: query.get("cursor").map { String($0) }, limit: limit)
        return try .json(CampaignListAnswer(campaigns: campaigns.map { CampaignView($0) }, nextCursor: next), status: .ok)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        let campaign = try await desk.campaign(try campaignID(context), for: caller)
        let from =
            try request.uri.queryParameters.get("from_scene").map { text in
                guard let number = Int(text), number >= 1 else {
                    throw Problem.invalidInput(InputError(field: "from_scene", reason: "must be a whole number from 1"))
                }
                return number
            } ?? 1
        return try .json(CampaignView(campaign, scenes: try await desk.scenes(of: campaign, from: from)), status: .ok)
    }

    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        var request = request
        let change = try await decode(CampaignChange.self, from: &request)
        try change.validate()
        let campaign = try await desk.update(try campaignID(context), title: change.title, settings: change.settings, for: caller)
        return try .json(CampaignView(campaign), status: .ok)
    }

    @Sendable func play(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        var request = request
        let turn = try await decode(CampaignTurn.self, from: &request)
        let (campaign, job) = try await desk.play(
            turn.action, in: try campaignID(context), caller: caller, idempotencyKey: request.headers[.idempotencyKey])
        return try .json(CampaignJobAnswer(campaign: CampaignView(campaign), job: job), status: .accepted, location: "/v1/jobs/\(job.id)")
    }

    @Sendable func export(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        var request = request
        let export = try await decode(CampaignExport.self, from: &request)
        let job = try await desk.export(
            try campaignID(context), format: export.format, caller: caller, idempotencyKey: request.headers[.idempotencyKey])
        return try .json(job, status: .accepted, location: "/v1/jobs/\(job.id)")
    }

    private func campaignID(_ context: Context) throws -> CampaignID {
        guard let id = context.parameters.get("id").flatMap(CampaignID.init(validating:)) else { throw Problem.campaignNotFound }
        return id
    }

    private func decode<Body: Decodable>(_ type: Body.Type, from request: inout Request) async throws -> Body {
        let body = try await request.collectBody(within: configuration.maxJobBodyBytes)
        return try CampaignBodies.decode(type, from: Data(body.readableBytesView))
    }
}

/// The bodies the campaign routes and the MCP tools take, decoded with a reason a client can act on.
enum CampaignBodies {
    static func decode<Body: Decodable>(_ type: Body.Type, from data: Data) throws -> Body {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw Problem.invalidInput(InputError(field: path(context.codingPath + [key]), reason: "is required"))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw Problem.invalidInput(InputError(field: path(context.codingPath), reason: "has the wrong type"))
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw Problem.invalidInput(InputError(field: path(context.codingPath), reason: "is not a valid value"))
        } catch {
            throw Problem(.badRequest, "malformed_json", "the body must be a JSON object")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}

/// `PATCH /v1/campaigns/{id}`: the title, the player's settings, or both; not the history.
struct CampaignChange: Decodable {
    let title: String?
    let settings: JSONValue?

    func validate() throws {
        if let title, title.isEmpty || title.count > 200 {
            throw Problem.invalidInput(InputError(field: "title", reason: "must be 1–200 characters"))
        }
        if let settings, case .object = settings {
        } else if settings != nil {
            throw Problem.invalidInput(InputError(field: "settings", reason: "must be an object"))
        }
        if let settings, settings.canonicalJSON().utf8.count > 10_000 {
            throw Problem.invalidInput(InputError(field: "settings", reason: "must be at most 10,000 bytes"))
        }
    }
}

/// `POST /v1/campaigns/{id}/turns`: what the player does.
struct CampaignTurn: Decodable {
    let action: String
}

/// `POST /v1/campaigns/{id}/exports`: the document's format.
struct CampaignExport: Decodable {
    let format: DocumentFormat
}

/// The opaque cursor of a campaign list: the last campaign's update time and id.
enum CampaignListCursor {
    static func encode(_ cursor: CampaignCursor) -> String {
        "\(Int64((cursor.updatedAt.timeIntervalSince1970 * 1_000_000).rounded()))_\(cursor.id)"
    }

    static func decode(_ text: String) -> CampaignCursor? {
        let parts = text.split(separator: "_", maxSplits: 1)
        guard parts.count == 2, let micros = Int64(parts[0]), let id = CampaignID(validating: String(parts[1])) else { return nil }
        return CampaignCursor(updatedAt: Date(timeIntervalSince1970: Double(micros) / 1_000_000), id: id)
    }
}
