import Hummingbird
import KilnJSON

/// `POST /v1/moderations`, §4 of the wire-format reference.
///
/// Text is flagged by a small lexicon per category (whole words, any case), so tests know exactly what is
/// flagged; images are never flagged unless the request carries the `flagged` fault, which flags `sexual` and
/// `violence` for image inputs (and, without images, for the text).
enum Moderations {
    /// The 13 categories, in the order the API lists them.
    static let categories = [
        "harassment", "harassment/threatening", "hate", "hate/threatening", "illicit", "illicit/violent", "self-harm", "self-harm/intent",
        "self-harm/instructions", "sexual", "sexual/minors", "violence", "violence/graphic",
    ]

    /// The categories that can apply to images.
    static let imageCategories: Set<String> = ["self-harm", "self-harm/intent", "self-harm/instructions", "sexual", "violence", "violence/graphic"]

    /// The words that flag each category.
    static let lexicon: [String: Set<String>] = [
        "harassment": ["harassword"],
        "harassment/threatening": ["threatword"],
        "hate": ["hateword"],
        "hate/threatening": ["hatethreatword"],
        "illicit": ["meth"],
        "illicit/violent": ["pipebomb"],
        "self-harm": ["suicide"],
        "self-harm/intent": ["selfharmintent"],
        "self-harm/instructions": ["selfharmhowto"],
        "sexual": ["nsfw", "explicit"],
        "sexual/minors": ["minorword"],
        "violence": ["kill", "murder", "stab"],
        "violence/graphic": ["gore", "dismember"],
    ]

    /// One moderation input: its texts and how many images it carries.
    struct Input {
        var texts: [String]
        var images: Int
    }

    static func respond(to exchange: Exchange) async throws -> Response {
        guard let authorization = exchange.header("authorization"), authorization.hasPrefix("Bearer "), authorization.count > 7 else {
            throw Rejection(
                exchange.provider.errorResponse(
                    status: 401,
                    message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
                    requestID: exchange.requestID))
        }
        let body = try exchange.json()
        let model = body["model"]?.stringValue ?? "omni-moderation-latest"
        let inputs: [Input]
        switch body["input"] {
        case .string(let text)?:
            inputs = [Input(texts: [text], images: 0)]
        case .array(let elements)? where elements.allSatisfy({ $0.stringValue != nil }):
            inputs = elements.compactMap(\.stringValue).map { Input(texts: [$0], images: 0) }
        case .array(let parts)?:
            // A list of text and image parts is one input, with one combined result.
            inputs = [
                Input(
                    texts: parts.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil },
                    images: parts.filter { $0["type"]?.stringValue == "image_url" }.count)
            ]
        default:
            throw exchange.badRequest("Missing required parameter: 'input'.")
        }
        let fault = try exchange.fault(model: model, prompt: inputs.flatMap(\.texts).joined(separator: "\n"))
        if let response = try await exchange.interrupt(for: fault) { return response }
        let results = inputs.map { self.result(for: $0, forced: fault?.mode == .flagged) }
        let id = Provider.identifier("modr-", seed: "moderation/\(exchange.sequence)", length: 29)
        return exchange.answer(.object(["id": .string(id), "model": .string(model), "results": .array(results)]), fault: fault)
    }

    static func result(for input: Input, forced: Bool) -> JSONValue {
        let words = Set(
            input.texts.flatMap { FaultDirective.stripped($0).lowercased().split { !$0.isLetter && $0 != "-" }.map(String.init) })
        var flags: [String: JSONValue] = [:]
        var scores: [String: JSONValue] = [:]
        var applied: [String: JSONValue] = [:]
        for category in self.categories {
            var types: [JSONValue] = []
            if !input.texts.isEmpty { types.append("text") }
            if input.images > 0, self.imageCategories.contains(category) { types.append("image") }
            let byText = !(self.lexicon[category] ?? []).isDisjoint(with: words)
            let byFault = forced && (category == "sexual" || category == "violence")
            let flagged = byText || byFault
            // Scores are deterministic in the text, so the same input always scores the same.
            var generator = SeededGenerator(seed: "\(category)\n\(input.texts.joined(separator: "\n"))")
            let score = flagged ? 0.9 + Double(generator.next() % 900) / 10_000 : Double(generator.next() % 1000) / 100_000
            flags[category] = .bool(flagged)
            scores[category] = .number(score)
            applied[category] = .array(types)
        }
        let flagged = flags.values.contains(.bool(true))
        return .object([
            "flagged": .bool(flagged), "categories": .object(flags), "category_scores": .object(scores),
            "category_applied_input_types": .object(applied),
        ])
    }
}
