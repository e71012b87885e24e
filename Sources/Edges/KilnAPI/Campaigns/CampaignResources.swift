import Foundation
import HTTPTypes
import KilnCore
import KilnStore
import MCP
import NIOCore

/// Campaigns as MCP resources, for the app's resource discovery: `campaign://<id>` is a campaign with its whole
/// history (JSON), `campaign://<id>/exports/<job>/<file>` a document `export_campaign` made.
struct CampaignResources {
    let call: MCPCall

    static let template = Resource.Template(
        uriTemplate: "campaign://{campaign_id}", name: "campaign", title: "A campaign",
        description: "The campaign's state and its scenes, oldest first", mimeType: "application/json")

    static func uri(of id: CampaignID) -> String { "campaign://\(id)" }

    static func exportURI(campaign: CampaignID, job: JobID, name: String) -> String { "campaign://\(campaign)/exports/\(job)/\(name)" }

    private var desk: CampaignDesk { CampaignDesk(dependencies: call.dependencies) }

    /// The caller's campaigns, the latest played first, a page at a time.
    func list(cursor: String?) async throws -> ListResources.Result {
        let page: (campaigns: [StoredCampaign], nextCursor: String?)
        do {
            page = try await desk.page(for: call.caller, cursor: cursor, limit: CampaignDesk.pageLimit)
        } catch let problem as Problem where problem.field == "cursor" {
            // MCP's own paging: a bad cursor is invalid params (-32602).
            throw MCPError.invalidParams(problem.detail)
        }
        return ListResources.Result(
            resources: page.campaigns.map {
                Resource(name: $0.title, uri: Self.uri(of: $0.id), description: "\($0.sceneCount) scenes", mimeType: "application/json")
            },
            nextCursor: page.nextCursor)
    }

    /// A campaign with its history, or an exported document; another identity's is not found.
    func read(_ uri: String) async throws -> ReadResource.Result {
        guard uri.hasPrefix("campaign://") else { throw Self.notFound(uri) }
        let parts = uri.dropFirst("campaign://".count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let id = CampaignID(validating: parts[0]) else { throw Self.notFound(uri) }
        do {
            let campaign = try await desk.campaign(id, for: call.caller)
            switch parts.count {
            case 1:
                let view = CampaignView(campaign, scenes: try await desk.scenes(of: campaign, from: 1))
                return ReadResource.Result(contents: [.text(try AnswerEncoding.text(of: view), uri: uri, mimeType: "application/json")])
            case 4 where parts[1] == "exports":
                guard let job = JobID(validating: parts[2]),
                    let artifact = try await call.dependencies.artifacts.find(job: job, tenant: call.caller.tenant.id, name: parts[3]),
                    (try await JobLookup(dependencies: call.dependencies).find(job, call.caller)).kind == "document.export"
                else { throw Self.notFound(uri) }
                var bytes = Data()
                for try await chunk in try await call.dependencies.artifacts.chunks(of: artifact) { bytes.append(contentsOf: chunk) }
                return ReadResource.Result(contents: [.binary(bytes, uri: uri, mimeType: artifact.contentType)])
            default:
                throw Self.notFound(uri)
            }
        } catch let problem as Problem where problem.status == .notFound {
            throw Self.notFound(uri)
        }
    }

    /// MCP's "resource not found".
    private static func notFound(_ uri: String) -> MCPError {
        .serverError(code: -32002, message: "Resource not found: \(uri)")
    }
}
