import Hummingbird

/// An action that asks first: its form posted without `confirm=yes` is answered with a page that says what it will do
/// and posts the same fields again with it; only that second post acts. For what one click should not do: discarding
/// dead letters, revoking a key, pausing a whole class.
struct ConsoleConfirmation {
    /// The page's title.
    let title: String
    /// What the action will do, as a question.
    let question: String
    /// What it acts on, listed under the question (job ids); none for one thing the question names.
    var items: [String] = []
    /// The button that acts.
    let button: String
    /// The link that does not, and where it goes.
    let keep: String
    let back: String

    /// Whether the form is the confirmation's own post.
    static func isConfirmed(_ form: FormBody) -> Bool {
        form["confirm"] == "yes"
    }

    /// The page that asks, posting `fields` to `action` again.
    func page(
        action: String, fields: [(name: String, value: String)], renderer: ConsoleRenderer, session: SignedIn, request: Request
    ) -> Response {
        let model = Model(
            question: question, hasItems: !items.isEmpty, items: items, action: action, fields: fields.map { Field(name: $0.name, value: $0.value) },
            button: button, keep: keep, back: back, viewer: Viewer(session))
        return renderer.page("confirm", title: title, model: model, session: session, request: request)
    }

    private struct Field {
        let name: String
        let value: String
    }

    private struct Model {
        let question: String
        let hasItems: Bool
        let items: [String]
        let action: String
        let fields: [Field]
        let button: String
        let keep: String
        let back: String
        let viewer: Viewer
    }
}
