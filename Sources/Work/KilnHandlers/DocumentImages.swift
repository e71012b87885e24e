import Documents
import KilnQueue
import KilnStore

/// The pictures a document's input names by upload id, read from the identity's uploads and named for the document:
/// "cover" for a story's cover, "image-N" for the others in order of first use. An upload named twice is one picture,
/// which the PDF embeds once.
struct DocumentImages {
    private var byUpload: [String: DocumentImage] = [:]

    /// - Parameter cover: the id among `ids` that is the cover, if any.
    init(_ ids: [String], cover: String?, of job: ClaimedJob, uploads: UploadStore) async throws {
        var unique: [String] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        let images = try await uploads.images(unique, of: job)
        var counter = 0
        for (id, image) in zip(unique, images) {
            let baseName: String
            if id == cover {
                baseName = "cover"
            } else {
                counter += 1
                baseName = "image-\(counter)"
            }
            byUpload[id] = try await DocumentFailure.translating(upload: id) { try DocumentImage(baseName: baseName, data: image.data) }
        }
    }

    subscript(id: String?) -> DocumentImage? { id.flatMap { byUpload[$0] } }
}
