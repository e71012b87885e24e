import BlockingWork
import DocumentInputs
import Documents
import Drawing
import Foundation
import KilnCore
import KilnJSON
public import KilnQueue
public import KilnStore
public import KilnWorker
import TalevoniaInputs
import WorldArchitectInputs

/// `document.export`: WorldArchitect's campaign summary or Talevonia's reading path as PDF, DOCX, EPUB or text, stored
/// as the job's artifact `campaign.<format>` or `story.<format>` (docs/documents.md). Pictures are the identity's
/// uploads.
public struct DocumentExportHandler: JobHandler {
    private let uploads: UploadStore

    public init(uploads: UploadStore) {
        self.uploads = uploads
    }

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let input = try job.input(as: DocumentExportInput.self)
        let (document, name): (Document, String)
        if let campaign = input.campaign {
            let images = try await DocumentImages(campaign.scenes.compactMap(\.image), cover: nil, of: job, uploads: uploads)
            (document, name) = (Document(campaign: campaign, identifier: job.id.rawValue, images: images), "campaign")
        } else if let story = input.story {
            let images = try await DocumentImages(story.imageIDs, cover: story.cover, of: job, uploads: uploads)
            (document, name) = (Document(story: story, identifier: job.id.rawValue, images: images), "story")
        } else {
            throw JobFailure.permanent(code: "invalid_input", message: "the input holds neither a campaign nor a story")
        }
        context.progress(0.1, message: "writing \(input.format.rawValue)")
        let format = input.format
        // The job's own time, not now: a retried attempt writes the same book.
        let modified = Date(timeIntervalSince1970: Double(job.createdAtMilliseconds) / 1000)
        let bytes = try await DocumentFailure.translating {
            try await BlockingExecutor.rendering.run {
                switch format {
                case .pdf: try PDFWriter().write(document)
                case .docx: try DOCXWriter().write(document)
                case .epub: try EPUBWriter().write(document, modified: modified)
                case .txt: PlainTextWriter().write(document)
                }
            }
        }
        let artifact = "\(name).\(format.rawValue)"
        try await context.saveArtifact(artifact, contentType: format.contentType, bytes: bytes)
        let exported = ExportedDocument(
            artifact: artifact, format: format.rawValue, contentType: format.contentType, bytes: bytes.count, sections: document.sections.count,
            images: document.images.count)
        return try JSONValue(encoding: exported).canonicalJSON()
    }
}
