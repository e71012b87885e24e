import KilnCore
import PostgresClient

/// A domain value stored as text and validated again when read back, so a bad row is an error, not a bad value.
protocol StoredText {
    init?(storedText: String)
}

extension TenantID: StoredText {
    init?(storedText: String) { self.init(validating: storedText) }
}

extension JobID: StoredText {
    init?(storedText: String) { self.init(validating: storedText) }
}

extension Identity: StoredText {
    init?(storedText: String) { self.init(validating: storedText) }
}

extension Priority: StoredText {
    init?(storedText: String) { self.init(rawValue: storedText) }
}

extension JobState: StoredText {
    init?(storedText: String) { self.init(rawValue: storedText) }
}

extension PostgresRow {
    /// The column's text as a domain value; throws ``StoreError/Code/invalidRecord`` when the domain type rejects it.
    func decode<T: StoredText>(_ column: String, as type: T.Type) throws -> T {
        guard let value = T(storedText: try decode(column, as: String.self)) else {
            throw StoreError(.invalidRecord, "column \(column) does not hold a valid \(T.self)")
        }
        return value
    }
}
