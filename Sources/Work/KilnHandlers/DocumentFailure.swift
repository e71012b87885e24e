import Documents
import KilnCore

/// How a document writer's error fails the job: the same input would fail the same way, so for good, with a code the
/// app can act on — `upload_not_an_image` and `image_too_large` name a picture to replace, `document_failed` the rest.
enum DocumentFailure {
    static func translating<T>(upload: String? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DocumentError {
            let subject = upload.map { "upload \($0): " } ?? ""
            switch error.code {
            case "unreadable_image": throw JobFailure.permanent(code: "upload_not_an_image", message: subject + error.description)
            case "image_too_large": throw JobFailure.permanent(code: "image_too_large", message: subject + error.description)
            default: throw JobFailure.permanent(code: "document_failed", message: error.description)
            }
        }
    }
}
