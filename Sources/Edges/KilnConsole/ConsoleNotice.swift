import Foundation
import Hummingbird

/// The outcome of an operator's action, shown in the notice box of the page the action goes back to (post, redirect,
/// get). The redirect carries the text with a signature made with the session's secret, and a page shows a notice only
/// when the signature is its own session's: a link from elsewhere cannot put words in the console's notice box.
enum ConsoleNotice {
    /// The query that carries `text` to the next page of `session`.
    static func query(_ text: String, session: SignedIn) -> String {
        let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "notice=\(encoded)&notice_sig=\(signature(text, session))"
    }

    /// The notice `request` carries for `session`, if its signature is that session's.
    static func shown(in request: Request, session: SignedIn?) -> String? {
        guard let session, let text = request.uri.queryParameters["notice"].map(String.init),
            let given = request.uri.queryParameters["notice_sig"].map(String.init),
            SessionSecret.matches(given, signature(text, session))
        else { return nil }
        return text
    }

    private static func signature(_ text: String, _ session: SignedIn) -> String {
        SessionSecret.derive(session.secret, purpose: "notice:" + text)
    }
}
