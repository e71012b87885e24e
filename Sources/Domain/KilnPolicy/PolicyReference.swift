/// Something the policy file names rather than holds, such as a file's path or an environment variable, together with
/// the dotted field that names it, so that whoever reads it can say which field to fix.
public struct PolicyReference: Sendable, Hashable {
    /// As written in the file: a path (a relative one is relative to the policy file's directory) or a variable name.
    public let value: String
    /// The field's dotted path from the top of the file, e.g. `talevonia.app_store.root_certificates[0]`.
    public let field: String

    public init(value: String, field: String) {
        self.value = value
        self.field = field
    }

    /// The error that refuses the file when what the field names is missing or wrong.
    public func failure(_ reason: String) -> PolicyError {
        PolicyError(field: field, reason: reason)
    }
}

extension PolicyReference {
    init(_ value: String, at field: PolicyField) {
        self.init(value: value, field: field.path)
    }
}
