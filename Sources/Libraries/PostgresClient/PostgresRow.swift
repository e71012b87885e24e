/// One row of ``PostgresRows``, read a column at a time.
public struct PostgresRow: Sendable {
    /// Shares the storage of all rows (copy-on-write arrays), so a row costs no copy.
    private let rows: PostgresRows
    private let offset: Int

    init(rows: PostgresRows, offset: Int) {
        self.rows = rows
        self.offset = offset
    }

    /// The value of the column named `column`; throws when there is no such column, it is `NULL`, or its type is
    /// not one `type` reads.
    public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type) throws -> T {
        try decode(at: index(of: column), as: type)
    }

    /// The value of the column named `column`, nil for `NULL`.
    public func decode<T: PostgresDecodable>(_ column: String, as type: T?.Type) throws -> T? {
        try decode(at: index(of: column), as: type)
    }

    /// The value of the column at `column` (0 first).
    public func decode<T: PostgresDecodable>(_ column: Int, as type: T.Type) throws -> T {
        try decode(at: index(at: column), as: type)
    }

    /// The value of the column at `column` (0 first), nil for `NULL`.
    public func decode<T: PostgresDecodable>(_ column: Int, as type: T?.Type) throws -> T? {
        try decode(at: index(at: column), as: type)
    }

    private func decode<T: PostgresDecodable>(at column: Int, as type: T.Type) throws -> T {
        guard let value = try decode(at: column, as: T?.self) else {
            throw PostgresError.decoding("column \"\(rows.columns[column])\" is NULL; read it as \(T.self)?")
        }
        return value
    }

    private func decode<T: PostgresDecodable>(at column: Int, as type: T?.Type) throws -> T? {
        guard let text = rows.cells[offset + column] else { return nil }
        do {
            return try T(postgresText: text, type: rows.types[column])
        } catch let failure as PostgresDecodingFailure {
            throw PostgresError.decoding("column \"\(rows.columns[column])\": \(failure.reason)")
        } catch {
            throw PostgresError.decoding("column \"\(rows.columns[column])\": \(error)")
        }
    }

    private func index(of name: String) throws -> Int {
        guard let index = rows.columnIndex(named: name) else {
            throw PostgresError.decoding("no column named \"\(name)\" among \(rows.columns.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return index
    }

    private func index(at column: Int) throws -> Int {
        guard rows.columns.indices.contains(column) else {
            throw PostgresError.decoding("no column \(column): the row has \(rows.columns.count)")
        }
        return column
    }
}
