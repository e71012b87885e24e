import CurlClient
import Foundation
import RenderingFixtures
import Testing

@Suite("OpenAI images and moderations")
struct ImagesAndModerationTests {
    @Test func gptImageGenerationReturnsPNGsOfTheRequestedSize() async throws {
        try await withSimulator { simulator in
            let response = try await simulator.send(
                "/v1/images/generations", json: #"{"model":"gpt-image-1","prompt":"A lighthouse at dusk","n":2,"size":"384x256"}"#,
                headers: SimulatorHarness.openAIHeaders)
            #expect(response.status == 200)
            let body = try jsonObject(response.body)
            let data = try #require(body["data"] as? [[String: Any]])
            #expect(data.count == 2)
            var images: [[UInt8]] = []
            for entry in data {
                let encoded = try #require(entry["b64_json"] as? String)
                let png = [UInt8](try #require(Data(base64Encoded: encoded)))
                let parsed = try #require(ParsedPNG(png))
                #expect(parsed.width == 384)
                #expect(parsed.height == 256)
                #expect(parsed.crcsValid)
                images.append(png)
            }
            #expect(images[0] != images[1])
            let usage = try #require(body["usage"] as? [String: Any])
            #expect((usage["input_tokens_details"] as? [String: Any])?["text_tokens"] as? Int == 4)
        }
    }

    @Test func dallEURLIsServedByTheSimulator() async throws {
        try await withSimulator { simulator in
            let response = try await simulator.send(
                "/v1/images/generations", json: #"{"model":"dall-e-2","prompt":"A lighthouse","size":"256x256","response_format":"url"}"#,
                headers: SimulatorHarness.openAIHeaders)
            let body = try jsonObject(response.body)
            #expect(body["usage"] == nil)
            let url = try #require((body["data"] as? [[String: Any]])?.first?["url"] as? String)
            let image = try await simulator.client.execute(CurlClient.HTTPRequest(url: url))
            #expect(image.status == 200)
            #expect(image.header("content-type") == "image/png")
            let parsed = try #require(ParsedPNG(image.body))
            #expect(parsed.width == 256 && parsed.height == 256 && parsed.crcsValid)
        }
    }

    @Test func editsAcceptMultipartWithSeveralImages() async throws {
        let boundary = "kiln-boundary-1"
        var body: [UInt8] = []
        func field(_ name: String, _ value: String) {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        field("model", "gpt-image-1")
        field("prompt", "Add a dragon to the sky")
        field("size", "256x384")
        for index in 0..<2 {
            body += Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"image[]\"; filename=\"\(index).png\"\r\nContent-Type: image/png\r\n\r\n".utf8
            )
            body += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        try await withSimulator { simulator in
            let response = try await simulator.client.execute(
                CurlClient.HTTPRequest(
                    method: "POST", url: simulator.url("/v1/images/edits"),
                    headers: ["Authorization": "Bearer sk-test", "Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body))
            #expect(response.status == 200)
            let json = try jsonObject(response.body)
            let encoded = try #require((json["data"] as? [[String: Any]])?.first?["b64_json"] as? String)
            let decoded = try #require(Data(base64Encoded: encoded))
            let parsed = try #require(ParsedPNG([UInt8](decoded)))
            #expect(parsed.width == 256 && parsed.height == 384)
            #expect(((json["usage"] as? [String: Any])?["input_tokens_details"] as? [String: Any])?["image_tokens"] as? Int ?? 0 > 0)

            let missing = try await simulator.client.execute(
                CurlClient.HTTPRequest(
                    method: "POST", url: simulator.url("/v1/images/edits"),
                    headers: ["Authorization": "Bearer sk-test", "Content-Type": "multipart/form-data; boundary=x"],
                    body: Array("--x\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\nhi\r\n--x--\r\n".utf8)))
            #expect(missing.status == 400)
        }
    }

    @Test func moderationFlagsLexiconWordsPerInput() async throws {
        try await withSimulator { simulator in
            let response = try await simulator.send(
                "/v1/moderations",
                json: #"{"model":"omni-moderation-latest","input":["The knight will KILL the dragon.","A quiet walk in the park."]}"#,
                headers: SimulatorHarness.openAIHeaders)
            #expect(response.status == 200)
            let body = try jsonObject(response.body)
            #expect((body["id"] as? String)?.hasPrefix("modr-") == true)
            let results = try #require(body["results"] as? [[String: Any]])
            #expect(results.map { $0["flagged"] as? Bool } == [true, false])
            let categories = try #require(results[0]["categories"] as? [String: Bool])
            #expect(categories.count == 13)
            #expect(categories.filter(\.value).map(\.key) == ["violence"])
            let scores = try #require(results[0]["category_scores"] as? [String: Double])
            #expect(scores["violence"] ?? 0 > 0.8)
            #expect(scores["hate"] ?? 1 < 0.1)
        }
    }

    @Test func imagesAreFlaggedOnlyOnRequest() async throws {
        let input = #"{"input":[{"type":"text","text":"a picture"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]}"#
        try await withSimulator { simulator in
            let clean = try jsonObject(try await simulator.send("/v1/moderations", json: input, headers: SimulatorHarness.openAIHeaders).body)
            let result = try #require((clean["results"] as? [[String: Any]])?.first)
            #expect(result["flagged"] as? Bool == false)
            #expect((result["category_applied_input_types"] as? [String: [String]])?["sexual"] == ["text", "image"])
            #expect((result["category_applied_input_types"] as? [String: [String]])?["hate"] == ["text"])

            let flagged = try jsonObject(
                try await simulator.send(
                    "/v1/moderations", json: input, headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "flagged")
                ).body)
            let categories = try #require((flagged["results"] as? [[String: Any]])?.first?["categories"] as? [String: Bool])
            #expect(categories.filter(\.value).map(\.key).sorted() == ["sexual", "violence"])
        }
    }
}
