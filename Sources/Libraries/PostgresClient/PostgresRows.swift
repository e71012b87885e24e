/// The rows a statement returned, copied out of libpq's result before it was freed.
public struct PostgresRows: Sendable, RandomAccessCollection {
    /// The columns' names, in order.
    public let columns: [String]
    /// The columns' types, in order.
    public let types: [PostgresDataType]
    /// Rows the statement inserted, updated, deleted or returned, as its command tag reports (`PQcmdTuples`);
    /// 0 for statements without a count.
    public let affectedRows: Int
    /// The command tag (`PQcmdStatus`): `SELECT 2`, `COMMIT`, or `ROLLBACK` for the `COMMIT` of a failed transaction.
    let command: String
    /// Each cell's text, row after row; nil for `NULL`.
    let cells: [String?]
    private let rowCount: Int
    private let indexByName: [String: Int]

    init(columns: [String], types: [PostgresDataType], cells: [String?], rowCount: Int, affectedRows: Int, command: String) {
        self.columns = columns
        self.types = types
        self.cells = cells
        self.rowCount = rowCount
        self.affectedRows = affectedRows
        self.command = command
        // The first of several columns with one name wins, as in SQL's own resolution of `SELECT *` output.
        self.indexByName = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rowCount }

    public subscript(position: Int) -> PostgresRow {
        PostgresRow(rows: self, offset: position * columns.count)
    }

    func columnIndex(named name: String) -> Int? {
        indexByName[name]
    }
}
