extension InputError {
    /// Checks that a text the input holds is 1 to `maximum` characters long (as a reader counts them); an absent
    /// one passes.
    package static func checkLength(_ text: String?, field: String, maximum: Int) throws {
        guard let text else { return }
        guard !text.isEmpty, text.count <= maximum else { throw InputError(field: field, reason: "must be 1–\(maximum) characters long") }
    }
}
