import Foundation
import ImageOptions
import KilnCore
import KilnJSON
public import KilnPolicy
public import KilnProviders
public import KilnQueue
public import KilnStore
public import KilnWorker
import TalevoniaInputs
import VeramoInputs

/// The image kinds: Veramo's `image.generate` (text to image, one upload edited, several combined) and Talevonia's
/// `image.illustrate` and `image.cover`. The prompt comes from the kind's template with the style preset; the
/// tenant's image route (by kind, and for `image.generate` by mode: `image.generate:edit`) makes the image; the
/// prompt and the image are judged by the tenant's safety profile; the image is stored as the job's artifact, private
/// to its owner, with its size, style, provider, model and seed in the result.
///
/// A tenant's lowest tier gets images of 1024 pixels on the long side and the other tiers 1536 (Talevonia's "HD
/// images" of Pro); a regeneration (`replaces`) is linked to the job whose image it replaces.
public struct ImageHandler: JobHandler {
    public static let standardLongSide = 1024
    public static let highResolutionLongSide = 1536

    private let routing: ImageRouting
    private let uploads: UploadStore
    private let usage: any ProviderUsageRecording
    private let safety: ContentSafety?
    private let policies: PolicySet

    public init(routing: ImageRouting, uploads: UploadStore, usage: any ProviderUsageRecording, safety: ContentSafety?, policies: PolicySet) {
        self.routing = routing
        self.uploads = uploads
        self.usage = usage
        self.safety = safety
        self.policies = policies
    }

    /// What a kind's input asks for, in the terms the handler works in.
    private struct Order {
        var route: String
        var template: String
        var values: [String: JSONValue]
        var style: ImageStyle?
        var aspectRatio: ImageAspectRatio
        var uploadIDs: [String] = []
        var replaces: String?
    }

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let order = try Self.order(for: job)
        guard let router = routing.router(tenant: job.tenant.rawValue, kind: order.route) else {
            throw JobFailure.permanent(code: "no_provider_route", message: "no image route serves \(order.route) for this tenant")
        }
        var values = order.values
        if let style = order.style { values["style_phrase"] = .string(style.promptPhrase) }
        let prompt = try PromptLibrary.render(order.template, with: .object(values)).user
        // The submitter's own uploads only: another identity's upload id is as good as unknown.
        let inputs = try await uploads.images(order.uploadIDs, of: job)
        try await safety.refuse([prompt], images: inputs, job, what: "the input")

        let size = order.aspectRatio.size(longSide: policies.admittedAtLowestTier(job) ? Self.standardLongSide : Self.highResolutionLongSide)
        let request = ImageGenerationRequest(
            model: "", prompt: prompt, size: size, inputs: inputs.map { .init(mediaType: $0.mediaType, data: $0.data) })
        let answer: GeneratedImages
        do {
            answer = try await router.generate(request)
        } catch let error as ProviderError {
            throw JobFailure(error)
        }
        guard let image = answer.images.first else {
            throw JobFailure.retryable(code: "no_image", message: "the provider answered without an image")
        }
        try await usage.record(
            ProviderUsageRecord(
                job: job.id, tenant: job.tenant, attempt: job.attempt, provider: answer.provider, model: answer.model,
                inputTokens: answer.usage.inputTokens, outputTokens: answer.usage.outputTokens, images: answer.images.count))
        try await safety.refuse([], images: [(image.mediaType, image.data)], job, what: "the image")

        let name = "image." + (image.mediaType.split(separator: "/").last.map(String.init) ?? "png")
        try await context.saveArtifact(name, contentType: image.mediaType, bytes: image.data)
        // The size made, which a model with fixed sizes may have rounded to its nearest.
        let made = image.pngSize ?? size
        let result = MadeImage(
            artifact: name, width: made.width, height: made.height, aspectRatio: order.aspectRatio.rawValue, style: order.style?.rawValue,
            provider: answer.provider, model: answer.model, promptVersion: order.template, seed: answer.seed, replaces: order.replaces)
        return try JSONValue(encoding: result).canonicalJSON()
    }

    /// The kind's input, read as an ``Order``.
    private static func order(for job: ClaimedJob) throws -> Order {
        switch job.kind {
        case "image.generate":
            let input = try job.input(as: ImageGenerateInput.self)
            let mode = input.mode
            return Order(
                route: "image.generate:\(mode.rawValue)", template: "image.generate.v1",
                values: ["prompt": .string(input.prompt), "edit": .bool(mode == .edit), "combine": .bool(mode == .multiEdit)],
                style: input.style, aspectRatio: input.aspectRatio ?? .square, uploadIDs: input.images ?? [])
        case "image.illustrate":
            let input = try job.input(as: IllustrateInput.self)
            return Order(
                route: job.kind, template: "image.illustrate.v1", values: ["text": .string(input.text)], style: input.style ?? .storybook,
                aspectRatio: input.aspectRatio ?? .landscape, replaces: input.replaces)
        case "image.cover":
            let input = try job.input(as: CoverInput.self)
            var values: [String: JSONValue] = ["title": .string(input.title)]
            if let opening = input.opening { values["opening"] = .string(opening) }
            return Order(
                route: job.kind, template: "image.cover.v1", values: values, style: input.style ?? .storybook,
                aspectRatio: input.aspectRatio ?? .portrait, replaces: input.replaces)
        default:
            throw JobFailure.permanent(code: "invalid_input", message: "\(job.kind) is not an image kind")
        }
    }
}
