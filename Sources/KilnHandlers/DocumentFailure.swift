import Documents
import KilnCore

/// How a document writer's error fails the job: the same input would fail the same way, so for good.
enum DocumentFailure {
    static func translating<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DocumentError {
            throw JobFailure.permanent(code: "document_failed", message: error.description)
        }
    }
}
