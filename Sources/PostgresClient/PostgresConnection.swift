internal import CLibPQ
public import ConnectionPooling
import Foundation

/// One blocking connection to PostgreSQL, owning its libpq `PGconn`.
///
/// Used by one caller at a time (the pool hands it out), always on a thread of its own, never on Swift's
/// cooperative pool. Every session is set to `TimeZone=UTC`, `DateStyle=ISO` and `bytea_output=hex`, the forms the
/// decoders read, and to the configuration's statement timeout and search path.
/// `@unchecked Sendable`: it is handed between threads by the pool, but only ever used by the one caller that
/// holds it, so its `PGconn` is never touched concurrently (libpq allows that for distinct connections).
public final class PostgresConnection: PooledConnection, @unchecked Sendable {
    /// The `PGconn`; nil once closed.
    private var handle: OpaquePointer?

    /// Connects and prepares the session.
    public init(configuration: PostgresConfiguration) throws {
        // Later keywords override earlier ones: the URL may change the keepalive defaults, and the
        // configuration's own fields win over the URL.
        let parameters: [(keyword: String, value: String)] = [
            // Notice a dead peer while blocked on a reply, which `statement_timeout` cannot (the server is gone).
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
            ("dbname", configuration.url),
            ("connect_timeout", String(configuration.connectTimeoutSeconds)),
            ("application_name", configuration.applicationName),
            ("client_encoding", "UTF8"),
        ]
        let handle = Self.withCStrings(parameters.map(\.keyword) + [nil]) { keywords in
            Self.withCStrings(parameters.map(\.value) + [nil]) { values in
                // expand_dbname = 1: the `dbname` value is the URL, expanded into its parameters.
                PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let handle else { throw PostgresError.connect("cannot allocate a connection") }
        self.handle = handle
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.scrubbed(Self.errorText(handle), url: configuration.url)
            close()
            throw PostgresError.connect(message)
        }
        // Notices ("schema already exists, skipping") are not errors; libpq's default prints them to stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        do {
            try query(
                """
                SELECT set_config('statement_timeout', $1, false), set_config('TimeZone', 'UTC', false),
                    set_config('DateStyle', 'ISO, MDY', false), set_config('bytea_output', 'hex', false)
                """,
                [String(configuration.statementTimeoutMilliseconds)]
            )
            if let searchPath = configuration.searchPath {
                try query("SELECT set_config('search_path', $1, false)", [Self.quoteIdentifier(searchPath)])
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Whether the connection has failed for good (`PQstatus` is no longer `CONNECTION_OK`) or was closed.
    public var isBroken: Bool {
        guard let handle else { return true }
        return PQstatus(handle) != CONNECTION_OK
    }

    /// Whether the pool may hand the connection to the next caller: working, and outside any transaction.
    public var isReusable: Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return false }
        return PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// Frees the `PGconn`; idempotent.
    public func close() {
        if let handle {
            PQfinish(handle)
            self.handle = nil
        }
    }

    /// Runs one statement with `$1 … $n` parameters sent apart from the SQL (`PQexecParams`, text format).
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> PostgresRows {
        let handle = try openHandle()
        let values = parameters.map(\.postgresValue.text)
        try Self.checkNoNUL(sql, "the statement")
        for (index, value) in values.enumerated() {
            if let value { try Self.checkNoNUL(value, "parameter $\(index + 1)") }
        }
        guard values.count <= Int(Int16.max) * 2 + 1 else {
            throw PostgresError.encoding("a statement takes at most 65535 parameters; send arrays instead")
        }
        let result = Self.withCStrings(values) { pointers in
            PQexecParams(handle, sql, Int32(values.count), nil, pointers, nil, nil, 0)
        }
        return try rows(of: result, on: handle)
    }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> Int {
        try query(sql, parameters).affectedRows
    }

    /// Runs several `;`-separated statements in one call (`PQexec`), for migration files only: it takes no
    /// parameters, so its text must never be built from data.
    public func executeScript(_ sql: String) throws {
        let handle = try openHandle()
        try Self.checkNoNUL(sql, "the script")
        try rows(of: PQexec(handle, sql), on: handle)
    }

    /// Runs `body` between `BEGIN` and `COMMIT`; rolls back when it throws, or when a statement failed inside it
    /// even though `body` caught that error.
    public func withTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        let value: T
        do {
            value = try body()
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
        // `COMMIT` of a failed transaction rolls back without an error: say so instead of returning as if saved.
        if let handle, PQtransactionStatus(handle) == PQTRANS_INERROR {
            try execute("ROLLBACK")
            throw PostgresError.transactionAborted
        }
        try execute("COMMIT")
        return value
    }

    /// `name` as a quoted SQL identifier, for the few statements that cannot take it as a parameter
    /// (`CREATE SCHEMA`, `search_path`).
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private func openHandle() throws -> OpaquePointer {
        guard let handle else { throw PostgresError.connection("connection closed") }
        return handle
    }

    /// Copies the result out and frees it; a failure is translated before libpq's next call overwrites its text.
    @discardableResult
    private func rows(of result: OpaquePointer?, on handle: OpaquePointer) throws -> PostgresRows {
        guard let result else {
            throw PostgresError.connection(Self.errorText(handle))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        switch status {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return Self.copyRows(result)
        case PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR:
            let code = Self.field(result, clibpq_diag_sqlstate()) ?? ""
            let message = Self.field(result, clibpq_diag_message_primary()) ?? Self.errorText(handle)
            if PQstatus(handle) != CONNECTION_OK {
                throw PostgresError.connection(message, code: code)
            }
            throw PostgresError.server(
                code: code, message: message,
                detail: Self.field(result, clibpq_diag_message_detail()), hint: Self.field(result, clibpq_diag_message_hint()))
        default:
            // COPY and replication answers: this client does not speak those protocols.
            let name = PQresStatus(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
            throw PostgresError.unexpectedResult("the statement answered \(name)")
        }
    }

    private static func copyRows(_ result: OpaquePointer) -> PostgresRows {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        var cells: [String?] = []
        cells.reserveCapacity(Int(rowCount) * Int(columnCount))
        for row in 0..<rowCount {
            for column in 0..<columnCount {
                guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column) else {
                    cells.append(nil)
                    continue
                }
                // The value lives in the result, which outlives this copy; its length excludes the NUL.
                let bytes = UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, row, column)))
                cells.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        return PostgresRows(
            columns: (0..<columnCount).map { PQfname(result, $0).map { String(cString: $0) } ?? "" },
            types: (0..<columnCount).map { PostgresDataType(oid: PQftype(result, $0)) },
            cells: cells,
            rowCount: Int(rowCount),
            affectedRows: PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
        )
    }

    private static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        PQresultErrorField(result, code).map { String(cString: $0) }
    }

    private static func errorText(_ handle: OpaquePointer) -> String {
        guard let text = PQerrorMessage(handle) else { return "unknown error" }
        return String(cString: text).trimmingWhitespace
    }

    /// Removes the URL's password from a connection error; an unparsable URL yields no details at all, since
    /// libpq's complaint would quote it.
    private static func scrubbed(_ message: String, url: String) -> String {
        var parseError: UnsafeMutablePointer<CChar>?
        defer { if let parseError { PQfreemem(parseError) } }
        guard let options = PQconninfoParse(url, &parseError) else { return "the connection URL is not valid" }
        defer { PQconninfoFree(options) }
        var option = options
        // The array ends with an entry whose keyword is NULL.
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val {
                let password = String(cString: value)
                return password.isEmpty ? message : message.replacingOccurrences(of: password, with: "********")
            }
            option += 1
        }
        return message
    }

    private static func checkNoNUL(_ text: String, _ what: String) throws {
        guard !text.utf8.contains(0) else {
            throw PostgresError.encoding("\(what) contains a NUL byte, which PostgreSQL text cannot hold")
        }
    }

    /// Calls `body` with NUL-terminated copies of `strings` (NULL pointers for nil), valid only during the call.
    private static func withCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        var buffer: [CChar] = []
        var offsets: [Int?] = []
        offsets.reserveCapacity(strings.count)
        for string in strings {
            guard let string else {
                offsets.append(nil)
                continue
            }
            offsets.append(buffer.count)
            buffer.append(contentsOf: string.utf8.map { CChar(bitPattern: $0) })
            buffer.append(0)
        }
        return buffer.withUnsafeBufferPointer { bytes in
            // The pointers point into `buffer`, which stays alive and unmodified until `body` returns.
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard let offset, let base = bytes.baseAddress else { return nil }
                return base + offset
            }
            return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        var scalars = Substring(self).unicodeScalars
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars).replacingOccurrences(of: "\n\t", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
