import Drawing
import Foundation

/// The web addresses in a message, as the chat apps find them: `http(s)://…`, `www.…`, or a bare name under a common
/// top-level domain (`example.com/path`, not `example.community`), without the punctuation that ends a sentence after
/// it; not the domain of an e-mail address.
enum ChatLink {
    /// A regex literal is not `Sendable`; this one is only ever read, its matching state being per call.
    nonisolated(unsafe) private static let pattern =
        /(?i)\b(?:https?:\/\/[^\s]+|www\.[^\s]+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|app|co|dev|me|tv|ly|gg|uk|de|fr)(?![a-z0-9-])(?:\/[^\s]*)?)/

    /// Punctuation that ends a sentence or a quotation after an address rather than belonging to it.
    private static let closers: Set<Character> = [".", ",", "!", "?", ";", ":", ")", "]", "}", "'", "\"", "…", "»", "”", "’"]

    /// Where the addresses are in `text`.
    static func ranges(in text: String) -> [Range<String.Index>] {
        text.matches(of: pattern).compactMap { match in
            // "ana@example.com": an e-mail address, not a link.
            if match.range.lowerBound > text.startIndex, text[text.index(before: match.range.lowerBound)] == "@" { return nil }
            var end = match.range.upperBound
            while end > match.range.lowerBound, let last = text[..<end].last, closers.contains(last) {
                end = text.index(before: end)
            }
            return match.range.lowerBound..<end
        }
    }

    /// The host an address names, without `www.`: what a link's card shows as its site.
    static func host(of address: Substring) -> String {
        var rest = address
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }
}

/// A link's card, as iMessage previews a link sent in a message: a balloon of its own under the message, in the
/// received messages' grey on either side, the site's host over the address.
struct ChatLinkCard {
    let site: TextLayout
    let address: TextLayout
    let width: Double
    let height: Double
}
