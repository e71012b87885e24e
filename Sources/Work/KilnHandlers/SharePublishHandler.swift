import BlockingWork
import Documents
import Drawing
import Foundation
import KilnCore
import KilnJSON
public import KilnPolicy
public import KilnQueue
public import KilnStore
public import KilnWorker
import TalevoniaInputs

/// `share.publish`: publishes a snapshot of a reading path as the web reader's page at `<public URL>/s/<slug>`, with
/// its pictures and its landscape share card (the link preview's image), until it expires or its owner revokes it
/// (`DELETE /v1/shares/{slug}`). The page is rendered here, once; the API only serves it (docs/documents.md).
public struct SharePublishHandler: JobHandler {
    private let uploads: UploadStore
    private let shares: ShareStore
    private let policies: PolicySet
    private let publicURL: String
    private let workDirectory: String

    /// - Parameter publicURL: where the API is reached from the internet, without a trailing slash
    ///   (`https://kiln.example.com`): the page's address and its Open Graph links start with it.
    public init(uploads: UploadStore, shares: ShareStore, policies: PolicySet, publicURL: String, workDirectory: String? = nil) {
        self.uploads = uploads
        self.shares = shares
        self.policies = policies
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.workDirectory = workDirectory ?? NSTemporaryDirectory()
    }

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let input = try job.input(as: SharePublishInput.self)
        let story = input.story
        let images = try await DocumentImages(story.imageIDs, cover: story.cover, of: job, uploads: uploads)
        let document = Document(story: story, identifier: job.id.rawValue, images: images)
        let card = try await ShareCardHandler.card(
            for: story, summary: input.summary, watermark: policies.admittedAtLowestTier(job), images: images, workDirectory: workDirectory)

        let expiresAt = Date().addingTimeInterval(Double(input.expiresInDays ?? SharePublishInput.defaultDays) * 86_400)
        // The slug is on record before any file is written; a retried attempt publishes under the one the first reserved.
        let slug = try await Self.revocationEndsTheJob {
            try await shares.reserve(job: job.id, tenant: job.tenant, identity: job.identity, expiresAt: expiresAt)
        }
        let path = "/s/\(slug)"
        let address = publicURL + path
        let cardURL = "\(address)/card.png"
        let (html, cardPNG) = try await DocumentFailure.translating {
            try await BlockingExecutor.rendering.run {
                // The link preview's addresses must be whole; the page's own pictures go by path, so they show on any
                // domain the API answers on, and on the next one.
                let page = WebReaderPage(
                    document: document, pageURL: address, cardURL: cardURL, summary: input.summary, imageURL: { "\(path)/\($0.name)" })
                return (page.html, try card.render(.landscape))
            }
        }
        let files =
            [SharedFile(name: "card.png", contentType: "image/png", bytes: cardPNG)]
            + document.images.map { SharedFile(name: $0.name, contentType: $0.format.mediaType, bytes: $0.data) }
        try await Self.revocationEndsTheJob {
            try await shares.publish(slug: slug, tenant: job.tenant, html: html, files: files, expiresAt: expiresAt)
        }
        let published = PublishedShare(
            shareURL: address, slug: slug, cardURL: cardURL, expiresAt: ISO8601DateFormatter().string(from: expiresAt))
        return try JSONValue(encoding: published).canonicalJSON()
    }

    /// The owner revoked the page an earlier attempt published: the job ends for good, publishing nothing more.
    private static func revocationEndsTheJob<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StoreError where error.code == .alreadyExists {
            throw JobFailure.permanent(code: "share_revoked", message: "the owner revoked this page while its job ran")
        }
    }
}
