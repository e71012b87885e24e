import BlockingWork
import Documents
import Drawing
import Foundation
import KilnJSON
public import KilnPolicy
public import KilnQueue
public import KilnStore
public import KilnWorker
import TalevoniaInputs

/// `share.card`: Talevonia's share card as PNG, `card-landscape.png` (1200×630) and/or `card-story.png` (1080×1920).
/// An identity of the tenant's lowest tier gets the watermark.
public struct ShareCardHandler: JobHandler {
    private let uploads: UploadStore
    private let policies: PolicySet
    private let workDirectory: String

    /// - Parameter workDirectory: where a JPEG cover is converted; the system's temporary directory when nil.
    public init(uploads: UploadStore, policies: PolicySet, workDirectory: String? = nil) {
        self.uploads = uploads
        self.policies = policies
        self.workDirectory = workDirectory ?? NSTemporaryDirectory()
    }

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let input = try job.input(as: ShareCardInput.self)
        let watermark = policies.admittedAtLowestTier(job)
        let cover = input.story.cover
        let images = try await DocumentImages([cover].compactMap { $0 }, cover: cover, of: job, uploads: uploads)
        let card = try await Self.card(for: input.story, summary: input.summary, watermark: watermark, images: images, workDirectory: workDirectory)
        var artifacts: [ShareCards.Card] = []
        for size in input.sizes ?? ShareCardSize.allCases {
            let png = try await DocumentFailure.translating { try await BlockingExecutor.rendering.run { try card.render(size) } }
            let name = "card-\(size.rawValue).png"
            try await context.saveArtifact(name, contentType: "image/png", bytes: png)
            artifacts.append(ShareCards.Card(name: name, width: size.pixels.width, height: size.pixels.height))
        }
        return try JSONValue(encoding: ShareCards(artifacts: artifacts, watermark: watermark)).canonicalJSON()
    }

    /// The card of a reading path: its title, its cover (as PNG), the summary (the first paragraph when none is given)
    /// and a byline with the author and the path's length.
    /// - Parameter images: the path's pictures, already read, the cover among them when it has one.
    static func card(
        for story: StoryPath, summary: String?, watermark: Bool, images: DocumentImages, workDirectory: String
    ) async throws -> ShareCard {
        var cover: DocumentImage?
        if let image = images[story.cover] {
            cover = try await DocumentFailure.translating {
                try await BlockingExecutor.rendering.run { try CoverPicture.png(image, in: workDirectory) }
            }
        }
        let parts = story.nodes.count == 1 ? "1 part" : "\(story.nodes.count) parts"
        return ShareCard(
            title: story.title, summary: summary ?? Document.paragraphs(story.nodes[0].text).first ?? "", cover: cover,
            byline: story.author.map { "by \($0) · \(parts)" } ?? parts, watermark: watermark)
    }
}
