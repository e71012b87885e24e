public import KilnJSON

/// What to ask a text model, in terms every text provider understands.
public struct TextGenerationRequest: Sendable {
    /// A JSON Schema the answer must satisfy, for providers that can enforce one.
    public struct ResponseSchema: Sendable {
        /// A name of letters, digits, `_` and `-` (OpenAI requires one).
        public var name: String
        /// The schema itself.
        public var schema: JSONValue

        public init(name: String, schema: JSONValue) {
            self.name = name
            self.schema = schema
        }
    }

    /// The provider's model id, e.g. `claude-sonnet-4-5-20250929` or `gpt-4o-mini`.
    public var model: String
    /// Instructions that frame the whole conversation.
    public var system: String?
    /// The conversation, starting with the user.
    public var messages: [ChatMessage]
    /// Most tokens to generate for each answer. Default 1024.
    public var maxTokens: Int
    /// Sampling temperature; `nil` leaves the provider's default.
    public var temperature: Double?
    /// Strings that end the answer when generated.
    public var stopSequences: [String]
    /// How many independent answers to generate. Default 1.
    public var choices: Int
    /// The shape the answer must have, when it must be JSON.
    public var responseSchema: ResponseSchema?

    /// Creates a request; every argument but the model and messages has the default stated on its property.
    public init(
        model: String, system: String? = nil, messages: [ChatMessage], maxTokens: Int = 1024, temperature: Double? = nil,
        stopSequences: [String] = [], choices: Int = 1, responseSchema: ResponseSchema? = nil
    ) {
        self.model = model
        self.system = system
        self.messages = messages
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.stopSequences = stopSequences
        self.choices = choices
        self.responseSchema = responseSchema
    }
}
