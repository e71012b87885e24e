import KilnProviders
import Locking

/// A text provider that answers from a script, in memory: the pieces it streams, in order, or the error it fails with.
final class ScriptedTextProvider: TextProvider {
    let name = "scripted"
    private let pieces: [String]
    private let failure: ProviderError?
    private let asked = Locked<[TextGenerationRequest]>([])

    /// Answers `pieces` joined, streaming them one at a time.
    init(streaming pieces: [String]) {
        self.pieces = pieces
        self.failure = nil
    }

    /// Fails every call with `failure`.
    init(failing failure: ProviderError) {
        self.pieces = []
        self.failure = failure
    }

    /// The requests it was sent, in order.
    var requests: [TextGenerationRequest] { asked.withLock { $0 } }

    /// The usage every answer reports.
    static let usage = TokenUsage(inputTokens: 12, outputTokens: 34)

    func generate(_ request: TextGenerationRequest) async throws -> TextGeneration {
        asked.withLock { $0.append(request) }
        if let failure { throw failure }
        return answer(to: request)
    }

    func stream(_ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) throws -> Void) async throws -> TextGeneration {
        asked.withLock { $0.append(request) }
        if let failure { throw failure }
        for piece in pieces {
            try onDelta(TextDelta(choice: 0, text: piece))
        }
        return answer(to: request)
    }

    private func answer(to request: TextGenerationRequest) -> TextGeneration {
        TextGeneration(
            choices: [pieces.joined()], finishReason: .stop, usage: Self.usage, provider: name, model: "scripted-1", requestID: "req-1")
    }
}
