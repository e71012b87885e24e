/// One query parameter as sent to the server: its text form, or SQL `NULL`.
///
/// Every parameter travels in text format through `PQexecParams`, never spliced into the SQL, and the server
/// parses it as the type the statement gives it (`$1::uuid`, a column's type, …).
public struct PostgresValue: Sendable, Hashable {
    /// The text form, nil for `NULL`.
    public var text: String?

    public init(text: String?) {
        self.text = text
    }
}
