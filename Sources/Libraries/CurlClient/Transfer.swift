internal import CCurl
import Dispatch
import Locking

/// One request on its way through the ``TransferLoop``: its C header list, the response received so
/// far, and the continuation, stream or receiver that receives the result.
///
/// `@unchecked Sendable` is safe because the mutable state has one owner at a time: the submitting
/// task sets `delivery` before handing the transfer to the loop (the inbox lock orders that handoff),
/// and from then on only the loop thread touches `delivery`, `easy` and the response fields.
/// Other threads only read the immutable fields and the locked `cancelRequested`.
final class Transfer: @unchecked Sendable {
    typealias BodyStream = AsyncThrowingStream<[UInt8], any Error>

    enum Delivery {
        case buffered(CheckedContinuation<HTTPResponse, any Error>)
        /// Called on the loop thread with the buffered response or the error.
        case completion(@Sendable (Result<HTTPResponse, HTTPClientError>) -> Void)
        case awaitingHead(CheckedContinuation<HTTPStreamingResponse, any Error>, BodyStream, BodyStream.Continuation)
        case streaming(BodyStream.Continuation)
        /// The body goes to the receiver on the loop thread; the head, once the transfer ended, to the continuation.
        case receiving(CheckedContinuation<HTTPResponseHead, any Error>, HTTPClient.BodyReceiver)
    }

    let request: HTTPRequest
    let timeoutMilliseconds: Int
    /// The `CURLOPT_HTTPHEADER` list; it must outlive the transfer, so the transfer owns it.
    let headerList: UnsafeMutablePointer<curl_slist>?
    /// Set by any thread that cancels; read by the loop when the transfer reaches it.
    let cancelRequested = Locked<Bool>(false)

    /// Where the result goes; `nil` once it has been delivered.
    var delivery: Delivery?
    /// The easy handle while the transfer is in the multi handle.
    var easy: EasyHandle?

    /// When the loop started the transfer, and when its last byte arrived (`nil` before the first), in
    /// monotonic nanoseconds: the loop ends the transfer when the first-byte or idle timeout runs out.
    private var startedAt: UInt64 = 0
    private var lastByteAt: UInt64?
    private let firstByteTimeoutNanoseconds: UInt64?
    private let idleTimeoutNanoseconds: UInt64?

    private var status = 0
    private var headers = HTTPHeaders()
    private var headComplete = false
    private var body: [UInt8] = []
    /// The head handed to a receiver with each piece of the body, made once (``receiverHead()``).
    private var receivedHead: HTTPResponseHead?
    /// A receiver ended the transfer: it ends without an error.
    private var stoppedByReceiver = false

    init(_ request: HTTPRequest, timeout: Duration) throws(HTTPClientError) {
        guard !request.url.utf8.contains(0) else {
            throw HTTPClientError(kind: .invalidRequest, message: "the URL contains a NUL byte")
        }
        guard request.headers.allSatisfy(Self.isValid) else {
            throw HTTPClientError(kind: .invalidRequest, message: "a header field has an invalid name or value")
        }
        self.request = request
        self.timeoutMilliseconds = timeout.curlMilliseconds
        self.firstByteTimeoutNanoseconds = request.firstByteTimeout.map(\.nanoseconds)
        self.idleTimeoutNanoseconds = request.idleTimeout.map(\.nanoseconds)
        self.headerList = try Self.makeHeaderList(request)
    }

    deinit {
        curl_slist_free_all(self.headerList)
    }

    /// A name libcurl sends verbatim, and a value that cannot smuggle in another header line.
    private static func isValid(_ field: HTTPHeaders.Element) -> Bool {
        func isForbiddenInName(_ byte: UInt8) -> Bool {
            byte <= 32 || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ";") || byte == 127
        }
        return !field.name.isEmpty
            && !field.name.utf8.contains(where: isForbiddenInName)
            && !field.value.utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 }
    }

    /// Builds the header lines libcurl sends. `Name;` is libcurl's spelling of a field with an empty value,
    /// and a bare `Expect:` stops libcurl from waiting up to a second for `100 Continue` before large bodies.
    /// Signed requests go without it: libcurl 7.88.1 would put `expect` into SignedHeaders though it sends no such
    /// field, so no server could verify the signature. Their large bodies wait for `100 Continue`, which S3 sends.
    private static func makeHeaderList(_ request: HTTPRequest) throws(HTTPClientError) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        func append(_ line: String) throws(HTTPClientError) {
            guard let appended = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw HTTPClientError(kind: .transport, message: "out of memory building the header list")
            }
            list = appended
        }
        for field in request.headers {
            try append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        if request.body != nil, request.awsSigV4 == nil, request.headers["expect"] == nil {
            try append("Expect:")
        }
        return list
    }

    // MARK: Loop thread only

    /// Whether the loop must watch this transfer for a first-byte or idle timeout.
    var hasActivityTimeouts: Bool {
        self.firstByteTimeoutNanoseconds != nil || self.idleTimeoutNanoseconds != nil
    }

    /// Notes that the loop has handed the transfer to libcurl.
    func markStarted(at now: UInt64) {
        self.startedAt = now
    }

    /// The soonest the transfer can ever time out for lack of bytes, once started: an idle deadline counts from a byte,
    /// which comes no sooner than the start. `nil` when it has neither timeout.
    var soonestActivityDeadline: UInt64? {
        guard let shortest = [self.firstByteTimeoutNanoseconds, self.idleTimeoutNanoseconds].compactMap({ $0 }).min() else { return nil }
        return self.startedAt &+ shortest
    }

    /// When the transfer times out for lack of bytes, and the error it then ends with; `nil` if it never does.
    func activityDeadline() -> (at: UInt64, error: HTTPClientError)? {
        if let lastByteAt {
            guard let idle = self.idleTimeoutNanoseconds else { return nil }
            return (lastByteAt &+ idle, HTTPClientError(kind: .timeout, message: "no data for \(idle / 1_000_000) ms"))
        }
        guard let firstByte = self.firstByteTimeoutNanoseconds else { return nil }
        return (self.startedAt &+ firstByte, HTTPClientError(kind: .timeout, message: "no response within \(firstByte / 1_000_000) ms"))
    }

    private func noteBytesReceived() {
        if self.hasActivityTimeouts {
            self.lastByteAt = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Handles one line from `CURLOPT_HEADERFUNCTION`: a status line, a field, or the blank line that
    /// ends a response head. Interim `1xx` heads are discarded; trailers after the head are ignored.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        self.noteBytesReceived()
        guard !self.headComplete else { return }
        var line = bytes[...]
        while let last = line.last, last == 10 || last == 13 {
            line = line.dropLast()
        }
        if line.isEmpty {
            if self.status >= 200 {
                self.headComplete = true
                self.deliverHead()
            }
        } else if line.starts(with: "HTTP/".utf8) {
            // "HTTP/1.1 200 OK" or "HTTP/2 200": three digits after the first space.
            let digits = line.drop { $0 != 32 }.dropFirst().prefix(3)
            let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
            self.status = digits.allSatisfy(isDigit) ? digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } : 0
            self.headers = HTTPHeaders()
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let rest = line[(colon + 1)...]
            let isBlank = { (byte: UInt8) in byte == 32 || byte == 9 }
            let start = rest.firstIndex { !isBlank($0) } ?? rest.endIndex
            let end = rest.lastIndex { !isBlank($0) }.map { $0 + 1 } ?? start
            self.headers.add(
                name: String(decoding: line[..<colon], as: UTF8.self),
                value: String(decoding: rest[start..<end], as: UTF8.self)
            )
        }
    }

    /// Handles body bytes from `CURLOPT_WRITEFUNCTION`; returns `false` to abort the transfer because
    /// nobody is reading any more.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        self.noteBytesReceived()
        self.deliverHead()
        switch self.delivery {
        case .buffered, .completion:
            self.body.append(contentsOf: bytes)
            return true
        case .streaming(let continuation):
            if case .terminated = continuation.yield(Array(bytes)) { return false }
            return true
        case .receiving(_, let receive):
            self.stoppedByReceiver = !receive(self.receiverHead(), bytes)
            return !self.stoppedByReceiver
        case .awaitingHead, nil:
            return false
        }
    }

    /// Delivers the result, or `error`, exactly once.
    func complete(with error: HTTPClientError?) {
        guard let delivery = self.delivery else { return }
        self.delivery = nil
        switch delivery {
        case .buffered(let continuation):
            if let error {
                continuation.resume(throwing: error)
            } else {
                continuation.resume(returning: HTTPResponse(status: self.status, headers: self.headers, body: self.body))
            }
        case .completion(let completion):
            completion(error.map { .failure($0) } ?? .success(HTTPResponse(status: self.status, headers: self.headers, body: self.body)))
        case .awaitingHead(let head, let body, let continuation):
            if let error {
                head.resume(throwing: error)
            } else {
                head.resume(returning: HTTPStreamingResponse(status: self.status, headers: self.headers, body: body))
            }
            continuation.finish(throwing: error)
        case .streaming(let continuation):
            continuation.finish(throwing: error)
        case .receiving(let continuation, _):
            if let error, !self.stoppedByReceiver {
                continuation.resume(throwing: error)
            } else {
                continuation.resume(returning: self.receiverHead())
            }
        }
    }

    /// The response head a receiver gets, made at its first use (the head is complete once the body starts).
    private func receiverHead() -> HTTPResponseHead {
        if let receivedHead { return receivedHead }
        let head = HTTPResponseHead(status: self.status, headers: self.headers)
        self.receivedHead = head
        return head
    }

    /// Hands a streaming caller its response head, once; the body follows through the stream.
    private func deliverHead() {
        guard case .awaitingHead(let head, let body, let continuation) = self.delivery else { return }
        self.delivery = .streaming(continuation)
        head.resume(returning: HTTPStreamingResponse(status: self.status, headers: self.headers, body: body))
    }
}
