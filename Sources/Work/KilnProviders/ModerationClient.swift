public import CurlClient
import Foundation
import KilnJSON

/// OpenAI's moderations (`POST /v1/moderations`) for text and images.
public struct ModerationClient: Sendable {
    public let name: String
    /// The moderation model, e.g. `omni-moderation-latest`.
    public let model: String
    private let transport: ProviderTransport

    public init(http: HTTPClient, endpoint: ProviderEndpoint, model: String = "omni-moderation-latest", name: String = "openai") {
        self.name = name
        self.model = model
        self.transport = ProviderTransport(http: http, endpoint: endpoint, provider: name)
    }

    /// Judges `texts` and `images` (bytes with their media type) together, as one input.
    public func moderate(texts: [String], images: [(mediaType: String, data: [UInt8])] = []) async throws -> ModerationResult {
        var parts: [JSONValue] = texts.map { .object(["type": "text", "text": .string($0)]) }
        for image in images {
            let url = "data:\(image.mediaType);base64,\(Data(image.data).base64EncodedString())"
            parts.append(.object(["type": "image_url", "image_url": .object(["url": .string(url)])]))
        }
        let (json, headers) = try await self.transport.sendJSON(
            path: "/v1/moderations", headers: ["Authorization": "Bearer \(self.transport.endpoint.apiKey)"],
            body: .object(["model": .string(self.model), "input": .array(parts)]))
        guard let results = json["results"]?.arrayValue, !results.isEmpty else {
            throw self.transport.malformed("the answer has no results", headers: headers)
        }
        var scores: [String: Double] = [:]
        var flagged: Set<String> = []
        for result in results {
            if case .object(let categoryScores)? = result["category_scores"] {
                for (category, score) in categoryScores {
                    scores[category] = max(scores[category] ?? 0, score.numberValue ?? 0)
                }
            }
            if case .object(let categories)? = result["categories"] {
                flagged.formUnion(categories.filter { $0.value == .bool(true) }.keys)
            }
        }
        return ModerationResult(scores: scores, flagged: flagged)
    }
}
