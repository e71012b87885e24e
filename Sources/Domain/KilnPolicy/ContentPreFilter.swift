public import KilnJSON

/// What a tenant's safety strictness refuses before anything is charged or queued, without asking any provider:
/// personal data (email addresses, phone numbers) where the apps hold real people's or children's data, and
/// unambiguous sexual terms in content made for children. The moderation provider judges the rest, in the worker.
public struct ContentPreFilter: Sendable {
    /// Why a text was refused: the moderation category it falls under and where it was.
    public struct Rejection: Sendable, Equatable {
        /// `personal_data` or `sexual`.
        public let category: String
        /// The path of the refused string in the input, e.g. `input.prompt`.
        public let field: String

        public init(category: String, field: String) {
            self.category = category
            self.field = field
        }
    }

    /// Words refused in content made for children, matched whole and in any case.
    static let childSexualTerms: Set<String> = ["porn", "porno", "pornography", "nsfw", "nude", "nudes", "naked", "sex", "sexy", "xxx"]

    public let strictness: SafetyStrictness

    public init(strictness: SafetyStrictness) {
        self.strictness = strictness
    }

    /// The first string in `input` the strictness refuses, walking objects in key order; `nil` when all pass.
    public func check(_ input: JSONValue, field: String = "input") -> Rejection? {
        switch input {
        case .string(let text):
            return self.category(of: text).map { Rejection(category: $0, field: field) }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let rejection = self.check(element, field: "\(field)[\(index)]") { return rejection }
            }
            return nil
        case .object(let fields):
            for key in fields.keys.sorted() {
                if let value = fields[key], let rejection = self.check(value, field: "\(field).\(key)") { return rejection }
            }
            return nil
        case .null, .bool, .number:
            return nil
        }
    }

    private func category(of text: String) -> String? {
        switch self.strictness {
        case .standard, .fiction:
            return nil
        case .strict:
            return Self.holdsPersonalData(text) ? "personal_data" : nil
        case .child:
            if Self.holdsPersonalData(text) { return "personal_data" }
            let words = text.lowercased().split { !$0.isLetter }
            return words.contains { Self.childSexualTerms.contains(String($0)) } ? "sexual" : nil
        }
    }

    /// An email address (`name@host.tld`) or a phone number (9 digits or more with nothing but spaces, dots,
    /// dashes, parentheses or `+` between them).
    static func holdsPersonalData(_ text: String) -> Bool {
        for token in text.split(whereSeparator: \.isWhitespace) {
            let parts = token.split(separator: "@", omittingEmptySubsequences: false)
            if parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") {
                return true
            }
        }
        var digits = 0
        for character in text {
            if character.isASCII, character.isNumber {
                digits += 1
                if digits >= 9 { return true }
            } else if !" .-()+".contains(character) {
                digits = 0
            }
        }
        return false
    }
}
