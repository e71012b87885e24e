import Foundation
import HTTPTypes
import Hummingbird
import KilnStore
import NIOCore

/// `POST /v1/uploads`: inputs too large for a job body (images, drawings); jobs reference them by id.
struct UploadRoutes<Context: CallerRequestContext> {
    let dependencies: APIDependencies
    let configuration: APIConfiguration

    /// - Parameter v1: the authenticated `/v1` group.
    func register(on v1: some RouterMethods<Context>) {
        v1.post("uploads", use: upload)
    }

    @Sendable func upload(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        guard let contentType = request.headers[.contentType], !contentType.isEmpty else {
            throw Problem(.badRequest, "content_type_required", "send the upload's media type in Content-Type")
        }
        guard Self.isMediaType(contentType) else {
            throw Problem(.badRequest, "invalid_content_type", "Content-Type must be a media type such as image/png, at most 255 characters")
        }
        var request = request
        let body = try await request.collectBody(within: configuration.maxUploadBytes)
        guard body.readableBytes > 0 else { throw Problem(.badRequest, "empty_upload", "the upload has no bytes") }
        let upload = try await dependencies.uploads.save(
            tenant: caller.tenant.id, identity: caller.identity, contentType: contentType, bytes: Array(buffer: body))
        return try .json(UploadAnswer(upload), status: .created)
    }

    /// `type/subtype`, each an RFC 9110 token, and parameters after a `;` (`text/plain; charset=utf-8`).
    static func isMediaType(_ text: String) -> Bool {
        let token = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let essence = text.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        return text.utf8.count <= 255 && parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(token.contains) }
            && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
    }
}
