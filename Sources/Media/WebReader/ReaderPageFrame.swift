/// What every page of the web reader shares: the HTML5 document around a page's head and body, with the style sheet
/// inline, no script, and nothing fetched from elsewhere. A shared story's page (`WebReaderPage` in `Documents`) and
/// the notice pages (``NoticePage``) are both written in it, so they look alike.
public enum ReaderPageFrame {
    /// The document around `head` and `body`, in `language`; `head` and `body` are markup, escaped by the caller.
    public static func html(language: String, head: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(language.xmlEscaped)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex">
        <meta name="referrer" content="no-referrer">
        <meta name="color-scheme" content="light dark">
        \(head)
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }
}
