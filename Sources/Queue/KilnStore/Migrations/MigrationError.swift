/// `kiln migrate` refused to run, or a migration failed; names the file concerned.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers to match: `error.code == .checksumMismatch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case invalidFileName = "invalid file name"
            case duplicateVersion = "duplicate version"
            case checksumMismatch = "checksum mismatch"
            case fileMissing = "file missing"
            case unreadable
            case failed
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// A file in the migrations directory is not named `NNNN_name.sql`.
        public static var invalidFileName: Code { Code(.invalidFileName) }
        /// Two files carry the same version number.
        public static var duplicateVersion: Code { Code(.duplicateVersion) }
        /// An applied migration's file has changed (or been renamed) since it was applied: migrations are forward-only.
        public static var checksumMismatch: Code { Code(.checksumMismatch) }
        /// An applied migration's file is gone.
        public static var fileMissing: Code { Code(.fileMissing) }
        /// The directory or a file could not be read, or a file is not UTF-8.
        public static var unreadable: Code { Code(.unreadable) }
        /// The database refused a migration's SQL; nothing of that file was applied.
        public static var failed: Code { Code(.failed) }

        public var description: String { value.rawValue }
    }

    public let code: Code
    /// The migration file concerned.
    public let file: String
    public let message: String

    init(_ code: Code, file: String, _ message: String) {
        self.code = code
        self.file = file
        self.message = message
    }

    public var description: String { "migration \(file): \(code): \(message)" }
}
