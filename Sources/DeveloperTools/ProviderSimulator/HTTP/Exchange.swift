import Hummingbird
import KilnJSON

/// One request being answered: its collected body, its ordinal, the provider whose dialect answers it, and the
/// steps every provider route shares (counting, authentication, fault resolution, delays, error statuses).
struct Exchange: Sendable {
    let request: Request
    let body: [UInt8]
    let route: String
    let provider: Provider
    let sequence: UInt64
    let state: SimulatorState
    let configuration: SimulatorConfiguration

    var requestID: (header: String, value: String) { self.provider.requestID(sequence: self.sequence) }

    func header(_ name: String) -> String? {
        self.request.headers.value(name)
    }

    func query(_ name: String) -> String? {
        self.request.uri.queryParameters.get(name)
    }

    /// The body as JSON.
    /// - Throws: ``Rejection`` with the provider's 400 when it is not.
    func json() throws(Rejection) -> JSONValue {
        guard let value = JSONValue.parse(String(decoding: self.body, as: UTF8.self)) else {
            throw self.badRequest("The request body is not valid JSON.")
        }
        return value
    }

    /// The provider's 400 (fal: 422) with `message`, to throw.
    func badRequest(_ message: String) -> Rejection {
        Rejection(self.provider.errorResponse(status: self.provider == .fal ? 422 : 400, message: message, requestID: self.requestID))
    }

    /// The fault for this request.
    /// - Throws: ``Rejection`` with the provider's 400 when its spec does not parse.
    func fault(model: String?, prompt: String?) throws(Rejection) -> FaultSpec? {
        do {
            return try self.state.fault(route: self.route, model: model, header: self.header("x-kiln-fault"), prompt: prompt)
        } catch {
            throw self.badRequest("x-kiln-fault: \(error.description)")
        }
    }

    /// Runs the faults that act before any answer: `hang` never answers, `slow_first_byte` waits, and the
    /// status faults return their error response. `nil` means: answer normally.
    func interrupt(for fault: FaultSpec?) async throws -> Response? {
        guard let fault else { return nil }
        switch fault.mode {
        case .hang:
            try await Transmission.holdUntilClientLeaves(self.request.body)
            throw Transmission.DeliberateDisconnect()
        case .slowFirstByte:
            try await Task.sleep(for: .milliseconds(fault.integer("delay_ms", default: 2000)))
            return nil
        default:
            return self.provider.faultResponse(fault, requestID: self.requestID, sequence: self.sequence)
        }
    }

    /// A JSON answer with the provider's headers, shaped by stream-type faults (`trickle`, `stall`, `cut`) and
    /// truncated by `malformed`.
    func answer(_ body: JSONValue, fault: FaultSpec?, status: Int = 200) -> Response {
        var bytes = Array(body.canonicalJSON().utf8)
        if fault?.mode == .malformed {
            // Cut mid-document but announce the length actually sent: the transfer succeeds, the parse fails.
            bytes = Array(bytes.prefix(max(bytes.count * 2 / 3, 1)))
        }
        return self.answer(bytes: bytes, contentType: "application/json", fault: fault, status: status)
    }

    func answer(bytes: [UInt8], contentType: String, fault: FaultSpec?, status: Int = 200) -> Response {
        let transmission = Transmission(body: bytes, fault: fault)
        return Response(
            status: .init(code: status), headers: HTTPFields(pairs: [("content-type", contentType)] + self.successHeaders),
            body: transmission.responseBody(contentLength: bytes.count, requestBody: self.request.body))
    }

    /// An SSE answer.
    func stream(_ events: EventStream, fault: FaultSpec?, contentType: String = "text/event-stream; charset=utf-8") -> Response {
        let transmission = Transmission(stream: events, fault: fault, interval: self.configuration.deltaInterval)
        let requestID = self.requestID.value
        self.configuration.onStreamStart?(requestID, self.body)
        let observe = self.configuration.onStreamWrite.map { observer in { @Sendable (bytes: [UInt8]) in observer(requestID, bytes) } }
        return Response(
            status: .ok, headers: HTTPFields(pairs: [("content-type", contentType), ("cache-control", "no-cache")] + self.successHeaders),
            body: transmission.responseBody(contentLength: nil, requestBody: self.request.body, afterWrite: observe))
    }

    var successHeaders: [(String, String)] {
        [(self.requestID.header, self.requestID.value)] + self.provider.rateLimitHeaders(sequence: self.sequence)
    }
}
