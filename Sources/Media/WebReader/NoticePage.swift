/// The web reader's pages for an address that shows no story: the mark and a short message, nothing of anyone's.
/// The API node serves them without rendering anything, so they need no drawing library.
public enum NoticePage {
    /// What a link to a story its owner revoked, or whose share expired, shows (with status 410).
    public static let goneHTML = html(
        title: "This story is no longer shared", detail: "Its author stopped sharing it, or the link has expired.")

    /// What an address that never held a shared story shows (with status 404).
    public static let notFoundHTML = html(
        title: "Story not found", detail: "There is no shared story at this address. Check that the link is complete.")

    private static func html(title: String, detail: String) -> String {
        ReaderPageFrame.html(
            language: "en", head: "<title>\("\(title) · Talevonia".xmlEscaped)</title>",
            body: """
                <main class="notice">
                \(TalevoniaMark.svg(size: 56))
                <h1>\(title.xmlEscaped)</h1>
                <p>\(detail.xmlEscaped)</p>
                </main>
                """)
    }
}
