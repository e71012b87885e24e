import KilnCore

/// A tenant's text (a job's input or result) as the console may show it: whole when the tenant's retention keeps it,
/// and otherwise only its size and hash, so the console never shows what Kiln was told not to keep.
struct ShownText {
    /// What is printed: the text, cut to ``limit`` characters, or nil when withheld.
    let text: String?
    let summary: String

    /// Longer texts are cut on the page.
    static let limit = 8_192

    init(_ value: String?, kept: Bool) {
        guard let value, value != "null" else {
            text = nil
            summary = "none"
            return
        }
        let size = Formatting.size(value.utf8.count)
        if kept {
            text = value.count > Self.limit ? String(value.prefix(Self.limit)) + "…" : value
            summary = size
        } else {
            text = nil
            summary = "withheld by the tenant's retention: \(size), sha256 \(Digest.sha256Hex(value))"
        }
    }
}
