/// A provider that makes images: OpenAI Images, fal.ai's queue.
///
/// Every failure is a ``ProviderError`` saying whether a retry may help; a cancelled task ends the call at once
/// with `CancellationError` (and, for queued work, asks the provider to cancel it).
public protocol ImageProvider: Sendable {
    var name: String { get }

    /// Makes the images, from text alone or from ``ImageGenerationRequest/inputs``, and returns their bytes.
    func generate(_ request: ImageGenerationRequest) async throws -> GeneratedImages
}
