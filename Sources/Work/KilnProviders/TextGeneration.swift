/// What a text model answered.
public struct TextGeneration: Sendable, Equatable {
    /// Why the model stopped.
    public enum FinishReason: Sendable, Equatable {
        /// It finished its answer, or hit a stop sequence.
        case stop
        /// It ran out of tokens: the answer is cut short.
        case length
        /// It refused, or the provider's filter stopped it.
        case refused
        /// A reason Kiln does not interpret, as the provider spelt it.
        case other(String)
    }

    /// The answers, one per requested choice, in order.
    public var choices: [String]
    /// Why the model stopped (the first choice's reason when there are several).
    public var finishReason: FinishReason
    /// Tokens consumed, as the provider counted them.
    public var usage: TokenUsage
    /// The provider that answered, by its name in Kiln's configuration.
    public var provider: String
    /// The model that answered, as the provider named it.
    public var model: String
    /// The provider's id of the request, to quote to its support.
    public var requestID: String?
    /// How long the provider's rate-limit headers say no further request will succeed (none left until a reset);
    /// `nil` while there is room.
    public var rateLimitWait: Duration?

    public init(
        choices: [String], finishReason: FinishReason, usage: TokenUsage, provider: String, model: String, requestID: String? = nil
    ) {
        self.choices = choices
        self.finishReason = finishReason
        self.usage = usage
        self.provider = provider
        self.model = model
        self.requestID = requestID
    }

    /// The first answer, the only one unless several were asked for.
    public var text: String { self.choices.first ?? "" }
}
