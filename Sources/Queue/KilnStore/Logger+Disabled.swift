import Logging

extension Logger {
    /// Discards everything: the stores' logger when the caller passes none.
    static let disabled = Logger(label: "kiln.store", factory: { _ in SwiftLogNoOpLogHandler() })
}
