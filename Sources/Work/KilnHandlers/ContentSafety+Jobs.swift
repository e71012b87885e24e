import KilnCore
import KilnProviders
import KilnQueue

extension ContentSafety? {
    /// The categories in which `texts` and `images` break the job's tenant's thresholds; none without a judge. A
    /// failure of the moderation provider is the job's, as for any provider call.
    func refusals(of texts: [String], images: [(mediaType: String, data: [UInt8])] = [], _ job: ClaimedJob) async throws -> [String] {
        guard let self else { return [] }
        do {
            return try await self.violations(of: texts, images: images, tenant: job.tenant)
        } catch let error as ProviderError {
            throw JobFailure(error)
        }
    }

    /// Ends the job `content_filtered` when `texts` or `images` break its tenant's thresholds; `what` says which part
    /// of the job they are ("the input", "the image").
    func refuse(_ texts: [String], images: [(mediaType: String, data: [UInt8])] = [], _ job: ClaimedJob, what: String) async throws {
        let refused = try await refusals(of: texts, images: images, job)
        guard refused.isEmpty else {
            throw JobFailure.contentFiltered(message: "the safety filter refused \(what) (\(refused.joined(separator: ", ")))")
        }
    }
}
