import CurlClient
import KilnJSON
import KilnProviders
import Testing

/// The image clients against the simulator: real PNGs of the size asked for, edits from uploaded images, fal's queue
/// followed to the end, and a cancelled fal call cancelled at fal too.
@Suite struct ImageProviderTests {
    static let drawing = ImageGenerationRequest.InputImage(mediaType: "image/png", data: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3])

    @Test func openAIGeneratesImagesOfTheSizeAskedFor() async throws {
        try await SimulatorFixture.with { fixture in
            let client = OpenAIImagesClient(http: fixture.http, endpoint: fixture.endpoint())
            // gpt-image-2 takes any size (gpt-image-1 three: see below), so the test's images stay small.
            let answer = try await client.generate(ImageGenerationRequest(model: "gpt-image-2", prompt: "A lighthouse", size: (96, 64), count: 2))
            #expect(answer.images.count == 2)
            #expect(answer.images.allSatisfy { $0.pngSize.map { $0 == (96, 64) } == true })
            #expect(answer.usage.inputTokens > 0, "GPT image models count tokens")
        }
    }

    @Test func openAIEditsSendEveryImageAsMultipart() async throws {
        try await SimulatorFixture.with { fixture in
            let client = OpenAIImagesClient(http: fixture.http, endpoint: fixture.endpoint())
            let request = ImageGenerationRequest(
                model: "gpt-image-2", prompt: "Both of us as cartoons", size: (64, 64), inputs: [Self.drawing, Self.drawing])
            let answer = try await client.generate(request)
            #expect(answer.images.count == 1)
            #expect(answer.images[0].pngSize.map { $0 == (64, 64) } == true)
        }
    }

    @Test func modelsWithFixedSizesAreAskedForTheOneOfTheSameOrientation() {
        #expect(OpenAIImagesClient.size((1024, 576), model: "gpt-image-1") == "1536x1024")
        #expect(OpenAIImagesClient.size((768, 1024), model: "gpt-image-1") == "1024x1536")
        #expect(OpenAIImagesClient.size((1000, 1040), model: "gpt-image-1") == "1024x1024")
        #expect(OpenAIImagesClient.size((1024, 576), model: "dall-e-3") == "1792x1024")
        #expect(OpenAIImagesClient.size((1024, 576), model: "gpt-image-2") == "1024x576")
        #expect(OpenAIImagesClient.size(nil, model: "gpt-image-1") == nil)
    }

    @Test(arguments: [[], [Self.drawing], [Self.drawing, Self.drawing]])
    func falFollowsTheQueueToTheImages(inputs: [ImageGenerationRequest.InputImage]) async throws {
        try await SimulatorFixture.with { fixture in
            let client = FalClient(http: fixture.http, endpoint: fixture.endpoint(), firstPoll: .milliseconds(10))
            let model = inputs.count > 1 ? "fal-ai/flux-pro/kontext/multi" : inputs.isEmpty ? "fal-ai/flux/dev" : "fal-ai/flux-pro/kontext"
            let answer = try await client.generate(
                ImageGenerationRequest(model: model, prompt: "A dreamy garden", size: (80, 48), count: 2, inputs: inputs))
            #expect(answer.images.count == 2)
            #expect(answer.images.allSatisfy { $0.pngSize.map { $0 == (80, 48) } == true })
            #expect(answer.requestID != nil)
        }
    }

    @Test func falValidationErrorsAreNotRetried() async throws {
        try await SimulatorFixture.with { fixture in
            let client = FalClient(http: fixture.http, endpoint: fixture.endpoint(fault: "status; code=422"), firstPoll: .milliseconds(10))
            let error = await #expect(throws: ProviderError.self) {
                try await client.generate(ImageGenerationRequest(model: "fal-ai/flux/dev", prompt: "x"))
            }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.isRetryable == false)
        }
    }

    @Test func aCancelledFalCallIsCancelledAtFal() async throws {
        try await SimulatorFixture.with { fixture in
            let client = FalClient(http: fixture.http, endpoint: fixture.endpoint(), firstPoll: .seconds(30))
            let call = Task { try await client.generate(ImageGenerationRequest(model: "fal-ai/flux/dev", prompt: "A slow one")) }
            // Wait until the request sits in fal's queue, then give up on it.
            let deadline = ContinuousClock.now + .seconds(60)
            while try await Self.requests(fixture, "fal.status") == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            call.cancel()
            await #expect(throws: CancellationError.self) { try await call.value }
            #expect(try await Self.requests(fixture, "fal.cancel") == 1)
        }
    }

    /// How many requests of a route the simulator has answered.
    static func requests(_ fixture: SimulatorFixture, _ route: String) async throws -> Int {
        let response = try await fixture.http.execute(HTTPRequest(url: fixture.baseURL + "/_simulator/stats"))
        return JSONValue.parse(String(decoding: response.body, as: UTF8.self))?["requests"]?[route]?.intValue ?? 0
    }
}
