public import KilnCore
import KilnJSON
public import KilnPolicy
public import KilnProviders

/// The moderation model and each tenant's strictness: what judges a job's inputs and outputs in the worker.
public struct ContentSafety: Sendable {
    private let moderation: ModerationClient
    private let strictness: @Sendable (TenantID) -> SafetyStrictness

    /// - Parameter strictness: the tenant's level, from its policy (`standard` for tenants without one).
    public init(moderation: ModerationClient, strictness: @escaping @Sendable (TenantID) -> SafetyStrictness) {
        self.moderation = moderation
        self.strictness = strictness
    }

    /// The categories in which `texts` and `images` break the tenant's thresholds; empty when they pass. What the
    /// API refuses outright for the tenant (``ContentPreFilter``) is refused in a model's answer too, without asking
    /// the model.
    func violations(of texts: [String], images: [(mediaType: String, data: [UInt8])] = [], tenant: TenantID) async throws -> [String] {
        let texts = texts.filter { !$0.isEmpty }
        guard !texts.isEmpty || !images.isEmpty else { return [] }
        if let rejection = ContentPreFilter(strictness: self.strictness(tenant)).check(.array(texts.map(JSONValue.string))) {
            return [rejection.category]
        }
        let result = try await self.moderation.moderate(texts: texts, images: images)
        return SafetyThresholds(self.strictness(tenant)).violations(in: result)
    }
}
