import JobVocabulary

/// The language tag a document declares (EPUB's `dc:language`, the page's `lang`).
enum DocumentLanguage {
    /// A BCP 47 tag in its common shape: 2–3 letters, then subtags of 1–8 letters or digits ("en", "pt-BR", "zh-Hant").
    static func validate(_ tag: String?, field: String) throws {
        guard let tag else { return }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        let valid =
            parts.count <= 4 && (2...3).contains(parts[0].count) && parts[0].allSatisfy { $0.isASCII && $0.isLetter }
            && parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard valid else { throw InputError(field: field, reason: "must be a language tag such as en or pt-BR") }
    }
}
