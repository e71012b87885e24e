/// A piece of generated text, as it streams in.
public struct TextDelta: Sendable, Equatable {
    /// Which answer it belongs to, from 0.
    public var choice: Int
    public var text: String

    public init(choice: Int, text: String) {
        self.choice = choice
        self.text = text
    }
}

/// A provider that generates text: Anthropic Messages, OpenAI-compatible chat completions, Gemini.
///
/// Every failure is a ``ProviderError`` saying whether a retry may help; a cancelled task ends the call at once
/// with `CancellationError`.
public protocol TextProvider: Sendable {
    /// The provider's name in Kiln's configuration, e.g. `anthropic`.
    var name: String { get }

    /// Generates the whole answer before returning it.
    func generate(_ request: TextGenerationRequest) async throws -> TextGeneration

    /// Generates the answer as a stream: `onDelta` receives each piece in order as it arrives, and the call returns
    /// the whole answer once the stream has closed properly. An error thrown by `onDelta` ends the call with it.
    /// `onDelta` runs where the piece was read (the HTTP client's transfer thread), so it must not block.
    func stream(_ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) throws -> Void) async throws -> TextGeneration
}
