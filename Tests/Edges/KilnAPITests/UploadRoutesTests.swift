import Foundation
import HTTPTypes
import KilnAPI
import KilnCore
import KilnJSON
import KilnStore
import Testing

/// `POST /v1/uploads` over the in-memory upload store.
@Suite struct UploadRoutesTests {
    static func headers(_ contentType: String?) -> HTTPFields {
        var headers = TestAPI.headers()
        headers[.contentType] = contentType
        return headers
    }

    @Test func anUploadIsKeptAsTheCallersAndAnsweredWithItsId() async throws {
        let test = TestAPI()
        let answer = try await test.driver().send(.post, "/v1/uploads", headers: Self.headers("image/png"), body: "fake png bytes")
        #expect(answer.status == .created)
        let saved = try #require(test.uploads.uploads.first)
        #expect(saved.bytes == Array("fake png bytes".utf8))
        #expect(saved.upload.identity.rawValue == "user-1")
        let upload = try #require(JSONValue.parse(answer.body))
        #expect(upload["id"]?.stringValue == saved.upload.id.uuidString.lowercased())
        #expect(upload["content_type"]?.stringValue == "image/png")
        #expect(upload["size"] == .number(14))
        #expect(upload["sha256"]?.stringValue == Digest.sha256Hex("fake png bytes"))
    }

    @Test(
        arguments: [
            (nil, "bytes", 400, "content_type_required"),
            ("png", "bytes", 400, "invalid_content_type"),
            ("image/png", "", 400, "empty_upload"),
        ] as [(String?, String, Int, String)])
    func aBadUploadIsRefusedWithItsReasonAndKeepsNothing(contentType: String?, body: String, status: Int, code: String) async throws {
        let test = TestAPI()
        let answer = try await test.driver().send(.post, "/v1/uploads", headers: Self.headers(contentType), body: body)
        #expect(answer.status.code == status)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == code)
        #expect(test.uploads.uploads.isEmpty)
    }

    @Test func anUploadOverTheLimitIsA413() async throws {
        var test = TestAPI()
        test.configuration.maxUploadBytes = 8
        let answer = try await test.driver().send(.post, "/v1/uploads", headers: Self.headers("image/png"), body: "more than eight bytes")
        #expect(answer.status == .contentTooLarge)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "body_too_large")
        #expect(test.uploads.uploads.isEmpty)
    }
}
