import KilnCore
import KilnJSON

/// One kind whose answer is a JSON document from a text model: what it asks (a versioned prompt template and the
/// values it is rendered with), the shape the answer must have (a JSON Schema, sent to providers that enforce one
/// and checked by Kiln for all), the rules beyond the schema, and the result the app receives.
/// ``StructuredTextHandler`` does the rest, the same for every kind.
protocol StructuredTextKind: Sendable {
    associatedtype Input: KindInput
    /// The app's result: the type shared with the client (in the app's inputs module), so what the worker writes is what
    /// the client reads.
    associatedtype Output: Encodable & Sendable

    /// The prompt template's id, `<kind>.v<N>` (`Prompts/<id>.txt`); results carry it as `prompt_version`.
    var promptID: String { get }
    /// The name of the answer's schema, as OpenAI wants one (`[a-zA-Z0-9_-]`).
    var schemaName: String { get }
    /// Most tokens the answer may take.
    var maxTokens: Int { get }

    /// The uploads (images) the model looks at after the prompt, in order: a child's drawings.
    func attachedUploads(in input: Input) -> [String]
    /// The values the template is rendered with; `raw` is the validated input as the app sent it.
    func promptValues(for input: Input, raw: JSONValue) -> JSONValue
    /// The answer's schema, which may depend on the input (a campaign's NPCs, a conversation's length).
    func schema(for input: Input) -> JSONValue
    /// Which streamed stream the text of the string at `path` goes to, or nil when it is not streamed.
    func streamedField(at path: [JSONFieldStream.Component]) -> Int?
    /// The app's result from an answer that satisfies the schema, or what in it breaks the kind's other rules. The handler
    /// adds what every generated result carries: `prompt_version`, `provider`, `model`, `repaired` and `usage`.
    func result(from answer: JSONValue, input: Input) -> Result<Output, StructuredAnswerRejected>
}

/// What in a schema-valid answer breaks the kind's own rules.
struct StructuredAnswerRejected: Error {
    let violations: [OutputViolation]

    init(_ violations: [OutputViolation]) {
        self.violations = violations
    }
}

extension StructuredTextKind {
    func promptValues(for input: Input, raw: JSONValue) -> JSONValue { raw }
    func attachedUploads(in input: Input) -> [String] { [] }
}
