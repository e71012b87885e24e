internal import CLibPQ
import EventPolling
import Foundation
import NIOCore

/// One libpq connection on the query loop: connected with `PQconnectPoll`, non-blocking, in pipeline mode, each
/// statement followed by its own Sync and answered in the order sent.
///
/// Each statement is its own pipeline segment (`PQsendQueryParams` + `PQpipelineSync`), so an error aborts only
/// that statement, and a Sync ends its implicit transaction, as a lone statement's would. libpq 15's
/// `PQpipelineSync` also flushes, so each statement costs one `send`; one Sync per batch would save those but roll
/// back and abort the whole batch on one error (libpq 17's `PQsendPipelineSync` removes the trade-off).
///
/// Confined to the loop thread, which alone calls it: libpq allows one thread at a time per `PGconn`.
final class ServerConnection {
    enum Role {
        /// Carries the pool's shared, pipelined queries.
        case pipelined
        /// Leased to one caller at a time, for transactions, or idle between leases.
        case leased
    }

    enum State: Equatable {
        /// `PQconnectPoll` is under way and last asked to wait for the socket to be writable, or readable.
        case connecting(writing: Bool)
        /// Connected; the session's settings are in flight, and callers' statements wait for them.
        case settingUp
        case ready
        case closed
    }

    /// What an event, a send or a timer check did to the connection, for the loop to act on.
    enum Change {
        case none
        case becameReady
        /// The connection could not be opened; nothing was sent on it.
        case failedToConnect(PostgresError)
        /// An open connection broke or was closed; what was in flight on it has been failed.
        case closed
    }

    let id: Int
    /// What the connection serves now: an idle pipelined connection may be leased, and come back afterwards.
    var role: Role
    private(set) var state: State
    private let configuration: PostgresConfiguration
    private let registry: SocketRegistry
    private let connectDeadline: ContinuousClock.Instant
    /// The `PGconn`; nil once closed.
    private var handle: OpaquePointer?
    /// The socket as last registered; -1 before.
    private var socket: Int32 = -1
    /// Whether the open socket is watched for writing as well as reading; nil until it is watched once open. Each
    /// flush would otherwise cost an `epoll_ctl`.
    private var watchesWriting: Bool?
    /// Sent statements, oldest first, each awaiting its results and then its Sync (a script: its final NULL).
    private var inFlight = CircularBuffer<QueryRequest>()
    /// A leased connection's statements held back until the pipeline drains, behind a script that leaves pipeline
    /// mode to run.
    private var held = CircularBuffer<QueryRequest>()
    /// `PQflush` left output unsent: wait for the socket to be writable.
    private var wantsWrite = false
    /// Statements were sent since the last flush.
    private var needsFlush = false

    /// Starts connecting; the loop must call ``start()`` next.
    init(id: Int, role: Role, configuration: PostgresConfiguration, registry: SocketRegistry) {
        self.id = id
        self.role = role
        self.configuration = configuration
        self.registry = registry
        self.state = .connecting(writing: true)
        self.connectDeadline = .now + configuration.connectTimeout
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// How many statements are sent and not yet answered, or held back.
    var load: Int { inFlight.count + held.count }

    /// Whether a leased connection may serve the next lease: open, drained, and outside any transaction.
    var isReusable: Bool {
        guard state == .ready, inFlight.isEmpty, held.isEmpty, let handle, PQstatus(handle) == CONNECTION_OK else { return false }
        return PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    // MARK: Connecting

    /// Starts the non-blocking connect (`PQconnectStartParams`); host names are resolved here, blocking, so URLs
    /// should name addresses.
    func start() -> Change {
        // Later keywords override earlier ones: the URL may change the keepalive defaults, and the
        // configuration's own fields win over the URL.
        let parameters: [(keyword: String, value: String)] = [
            // Notice a dead peer while waiting on a reply, which `statement_timeout` cannot (the server is gone).
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
            ("dbname", configuration.url),
            ("application_name", configuration.applicationName),
            ("client_encoding", "UTF8"),
        ]
        let handle = Self.withCStrings(parameters.map(\.keyword) + [nil]) { keywords in
            Self.withCStrings(parameters.map(\.value) + [nil]) { values in
                // expand_dbname = 1: the `dbname` value is the URL, expanded into its parameters.
                PQconnectStartParams(keywords, values, 1)
            }
        }
        guard let handle else { return failConnect(.connect("cannot allocate a connection")) }
        self.handle = handle
        // Notices ("schema already exists, skipping") are not errors; libpq's default prints them to stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        guard PQstatus(handle) != CONNECTION_BAD else {
            return failConnect(.connect(Self.scrubbed(Self.errorText(handle), url: configuration.url)))
        }
        // libpq's rule: after PQconnectStart, act as if PQconnectPoll had asked to wait for writing.
        updateWatch()
        return .none
    }

    private func continueConnecting() -> Change {
        guard let handle else { return .closed }
        switch PQconnectPoll(handle) {
        case PGRES_POLLING_OK:
            guard PQsetnonblocking(handle, 1) == 0, PQenterPipelineMode(handle) == 1 else {
                return failConnect(.connect(Self.errorText(handle)))
            }
            state = .settingUp
            return transmit(sessionSettings())
        case PGRES_POLLING_READING:
            state = .connecting(writing: false)
        case PGRES_POLLING_WRITING:
            state = .connecting(writing: true)
        default:
            return failConnect(.connect(Self.scrubbed(Self.errorText(handle), url: configuration.url)))
        }
        updateWatch()
        return .none
    }

    /// The forms the decoders read, and the configuration's statement timeout and search path, for the session.
    private func sessionSettings() -> QueryRequest {
        var sql = """
            SELECT set_config('statement_timeout', $1, false), set_config('TimeZone', 'UTC', false),
                set_config('DateStyle', 'ISO, MDY', false), set_config('bytea_output', 'hex', false)
            """
        var values: [String?] = [String(configuration.statementTimeoutMilliseconds)]
        if let searchPath = configuration.searchPath {
            sql += ", set_config('search_path', $2, false)"
            values.append(PostgresConnection.quoteIdentifier(searchPath))
        }
        return QueryRequest(.parameters(sql: sql, values: values), deadline: connectDeadline, answer: .session)
    }

    private func failConnect(_ error: PostgresError) -> Change {
        shutDown(failing: error)
        return .failedToConnect(error)
    }

    // MARK: Statements

    /// Sends `request` (a leased connection may hold it back behind a script); a connection that breaks fails it.
    func send(_ request: QueryRequest) -> Change {
        guard state == .ready else {
            request.fail(.connection("connection closed"))
            return .none
        }
        if !held.isEmpty || (request.isScript && !inFlight.isEmpty) || inFlight.first?.isScript == true {
            held.append(request)
            return .none
        }
        return transmit(request)
    }

    private func transmit(_ request: QueryRequest) -> Change {
        guard let handle else {
            request.fail(.connection("connection closed"))
            return .closed
        }
        let sent: Bool
        switch request.statement {
        case .parameters(let sql, let values):
            sent =
                Self.withCStrings(values) { pointers in
                    PQsendQueryParams(handle, sql, Int32(values.count), nil, pointers, nil, nil, 0)
                } == 1 && PQpipelineSync(handle) == 1
        case .script(let sql):
            // Several statements in one string need the simple query protocol, which pipeline mode refuses; the
            // pipeline is empty here (see `send`), so leaving it is allowed.
            sent = PQexitPipelineMode(handle) == 1 && PQsendQuery(handle, sql) == 1
        }
        guard sent else {
            let error = PostgresError.connection(Self.errorText(handle))
            request.fail(error)
            return breakDown(error)
        }
        inFlight.append(request)
        needsFlush = true
        return .none
    }

    /// Sends what the statements left in libpq's buffer, once per turn of the loop, and watches the socket for
    /// what comes next.
    func flush() -> Change {
        guard needsFlush || wantsWrite, let handle, state == .ready || state == .settingUp else { return .none }
        needsFlush = false
        switch PQflush(handle) {
        case 0: wantsWrite = false
        case 1: wantsWrite = true
        default: return breakDown(.connection(Self.errorText(handle)))
        }
        updateWatch()
        return .none
    }

    // MARK: Events and timers

    /// Acts on what the poller saw on the socket.
    func handle(_ event: Poller.Event) -> Change {
        switch state {
        case .closed:
            return .none
        case .connecting:
            return continueConnecting()
        case .settingUp, .ready:
            guard let handle else { return .closed }
            if event.isReadable || event.isFailed {
                // Read even while writing: the server may be blocked sending us results (libpq's deadlock rule).
                guard PQconsumeInput(handle) == 1 else { return breakDown(.connection(Self.errorText(handle))) }
                let change = readResults(handle)
                guard case .none = change else { return change }
            }
            if PQstatus(handle) == CONNECTION_BAD {
                return breakDown(.connection(Self.errorText(handle)))
            }
            if wantsWrite || needsFlush {
                return flush()
            }
            return .none
        }
    }

    /// Fails the connection when its connect, or its oldest statement, is overdue.
    func expire(at now: ContinuousClock.Instant) -> Change {
        switch state {
        case .closed:
            return .none
        case .connecting, .settingUp:
            guard connectDeadline <= now else { return .none }
            return failConnect(.connect("no connection within \(configuration.connectTimeout)"))
        case .ready:
            guard let oldest = inFlight.first, oldest.deadline <= now else { return .none }
            oldest.fail(.timedOut)
            return breakDown(.connection("closed: a statement pipelined before this one timed out"))
        }
    }

    /// The earliest moment ``expire(at:)`` has something to do.
    var nextDeadline: ContinuousClock.Instant? {
        switch state {
        case .closed: nil
        case .connecting, .settingUp: connectDeadline
        case .ready: inFlight.first?.deadline
        }
    }

    /// Closes the connection, failing what is in flight or held with `error`.
    func close(failing error: PostgresError) {
        shutDown(failing: error)
    }

    // MARK: Results

    /// Takes every result libpq has complete, matching them to the statements in the order sent: each statement
    /// yields its results, then NULL, then (pipelined) one `PIPELINE_SYNC`, which ends it.
    private func readResults(_ handle: OpaquePointer) -> Change {
        while let head = inFlight.first, PQisBusy(handle) == 0 {
            guard let result = PQgetResult(handle) else {
                // A second NULL would mean libpq has nothing more for now; wait for input rather than spin.
                guard !head.resultsEnded else { break }
                head.resultsEnded = true
                if head.isScript {
                    _ = inFlight.popFirst()
                    head.finish(otherwise: .unexpectedResult("the script answered nothing"))
                    guard PQenterPipelineMode(handle) == 1 else { return breakDown(.connection(Self.errorText(handle))) }
                    let change = releaseHeld()
                    guard case .none = change else { return change }
                }
                continue
            }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC {
                PQclear(result)
                _ = inFlight.popFirst()
                let change = complete(head)
                guard case .none = change else { return change }
                continue
            }
            head.record(Self.translate(result, status: status, on: handle))
            PQclear(result)
        }
        return .none
    }

    /// A statement's Sync arrived: its implicit transaction has ended, so it is answered.
    private func complete(_ request: QueryRequest) -> Change {
        request.finish(otherwise: .unexpectedResult("the statement answered nothing"))
        guard state == .settingUp else { return .none }
        if case .failure(let error) = request.outcome {
            return failConnect(error)
        }
        state = .ready
        return .becameReady
    }

    /// Sends the statements a script held back, up to the next script.
    private func releaseHeld() -> Change {
        while let next = held.first, !(next.isScript && !inFlight.isEmpty), inFlight.first?.isScript != true {
            _ = held.popFirst()
            let change = transmit(next)
            guard case .none = change else { return change }
        }
        return .none
    }

    /// Copies a result out; a failure is translated before libpq's next call overwrites its text.
    private static func translate(_ result: OpaquePointer, status: ExecStatusType, on handle: OpaquePointer) -> Result<PostgresRows, PostgresError> {
        switch status {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return .success(copyRows(result))
        case PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR:
            let code = field(result, clibpq_diag_sqlstate()) ?? ""
            let message = field(result, clibpq_diag_message_primary()) ?? errorText(handle)
            if PQstatus(handle) != CONNECTION_OK {
                return .failure(.connection(message, code: code))
            }
            return .failure(
                .server(
                    code: code, message: message,
                    detail: field(result, clibpq_diag_message_detail()), hint: field(result, clibpq_diag_message_hint())))
        case PGRES_PIPELINE_ABORTED:
            return .failure(.unexpectedResult("an earlier statement of the pipeline failed"))
        default:
            // COPY and replication answers: this client does not speak those protocols.
            let name = PQresStatus(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
            return .failure(.unexpectedResult("the statement answered \(name)"))
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
            affectedRows: PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0,
            command: PQcmdStatus(result).map { String(cString: $0) } ?? ""
        )
    }

    // MARK: Closing

    /// Closes a connection that broke; one that broke before it was ready failed to connect.
    private func breakDown(_ error: PostgresError) -> Change {
        let wasReady = state == .ready
        shutDown(failing: error)
        return wasReady ? .closed : .failedToConnect(error)
    }

    private func shutDown(failing error: PostgresError) {
        state = .closed
        registry.forget(socket, of: self)
        socket = -1
        while let request = inFlight.popFirst() ?? held.popFirst() { request.fail(error) }
        if let handle {
            PQfinish(handle)
            self.handle = nil
        }
    }

    /// Watches the socket libpq uses now, which may have changed while connecting: for reading always (results,
    /// and the server closing the connection), and for writing while output is pending or the connect asks.
    private func updateWatch() {
        guard let handle else { return }
        let current = PQsocket(handle)
        if current != socket {
            registry.forget(socket, of: self)
            socket = current
        }
        guard current >= 0 else { return }
        switch state {
        case .connecting(let writing):
            // While connecting libpq may close a socket and open another under the same number: always register.
            registry.watch(current, for: self, reading: !writing, writing: writing)
            watchesWriting = nil
        case .settingUp, .ready:
            guard watchesWriting != wantsWrite else { return }
            registry.watch(current, for: self, reading: true, writing: wantsWrite)
            watchesWriting = wantsWrite
        case .closed:
            break
        }
    }

    // MARK: C strings and errors

    private static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        PQresultErrorField(result, code).map { String(cString: $0) }
    }

    private static func errorText(_ handle: OpaquePointer) -> String {
        guard let text = PQerrorMessage(handle) else { return "unknown error" }
        let message = String(cString: text).trimmingWhitespace
        return message.isEmpty ? "unknown error" : message
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

    /// Calls `body` with NUL-terminated copies of `strings` (NULL pointers for nil), valid only during the call;
    /// libpq copies what it keeps.
    private static func withCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        // One buffer for all of them, each copied in whole: a batch's array parameters run to hundreds of kilobytes.
        var buffer: [UInt8] = []
        buffer.reserveCapacity(strings.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 1 })
        var offsets: [Int?] = []
        offsets.reserveCapacity(strings.count)
        for string in strings {
            guard let string else {
                offsets.append(nil)
                continue
            }
            offsets.append(buffer.count)
            buffer.append(contentsOf: string.utf8)
            buffer.append(0)
        }
        return buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                // The pointers point into `buffer`, which stays alive and unmodified until `body` returns.
                let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                    guard let offset, let base = characters.baseAddress else { return nil }
                    return base + offset
                }
                return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
            }
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
