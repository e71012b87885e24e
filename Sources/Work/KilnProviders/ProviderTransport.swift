public import CurlClient
import Foundation
public import KilnJSON
import Locking

/// Sends a provider's JSON requests through libcurl and turns whatever comes back into an answer or a
/// ``ProviderError``: the part every provider client shares.
public struct ProviderTransport: Sendable {
    public let http: HTTPClient
    public let endpoint: ProviderEndpoint
    public let classifier: ProviderFailureClassifier

    public init(http: HTTPClient, endpoint: ProviderEndpoint, provider: String) {
        self.http = http
        self.endpoint = endpoint
        self.classifier = ProviderFailureClassifier(provider: provider)
    }

    /// Sends `body` to `path` and returns the 2xx response; any other status is classified and thrown.
    public func send(_ method: String = "POST", path: String, headers: HTTPHeaders, body: [UInt8]?) async throws -> HTTPResponse {
        try await self.send(method, url: self.endpoint.baseURL + path, headers: headers, body: body)
    }

    /// Sends `body` to an absolute URL the provider gave (fal's status and result URLs), with the same rules.
    public func send(_ method: String = "POST", url: String, headers: HTTPHeaders, body: [UInt8]?) async throws -> HTTPResponse {
        try await self.perform(self.request(method, url: url, headers: headers, body: body))
    }

    /// Fetches a file the provider made (an image URL it answered with): an absolute URL, without the API key, since
    /// such URLs are signed or public and may be on another host.
    public func download(_ url: String) async throws -> HTTPResponse {
        try await self.perform(HTTPRequest(url: url, firstByteTimeout: self.endpoint.firstByteTimeout, idleTimeout: self.endpoint.idleTimeout))
    }

    /// Runs `request` and returns the 2xx response; a failed transfer or any other status becomes a ``ProviderError``.
    private func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await self.http.execute(request, timeout: self.endpoint.totalTimeout)
        } catch let failure as HTTPClientError {
            throw self.classifier.error(failure)
        }
        guard (200..<300).contains(response.status) else {
            throw self.classifier.error(status: response.status, headers: response.headers, body: response.body)
        }
        return response
    }

    /// Sends `body` and parses the answer as JSON; a 2xx that is not JSON is a malformed response.
    public func sendJSON(path: String, headers: HTTPHeaders, body: JSONValue) async throws -> (JSONValue, HTTPHeaders) {
        let response = try await self.send(path: path, headers: headers, body: Array(body.canonicalJSON().utf8))
        guard let json = JSONValue.parse(String(decoding: response.body, as: UTF8.self)) else {
            throw self.malformed("the answer is not JSON", headers: response.headers)
        }
        return (json, response.headers)
    }

    /// Sends `body` and reads the answer as Server-Sent Events, handing each to `onEvent` in order until it returns
    /// `true` for the stream's closing event. A stream that ends before that is truncated, even when the transfer
    /// itself ended cleanly. `onEvent` runs on the HTTP client's transfer thread as each piece of the stream arrives
    /// (no task is woken for it), so it must not block; an error it throws ends the call with it.
    /// - Returns: the response's header fields.
    @discardableResult
    public func stream(
        path: String, headers: HTTPHeaders, body: JSONValue, onEvent: @escaping @Sendable (ServerSentEvent, HTTPHeaders) throws -> Bool
    ) async throws -> HTTPHeaders {
        var headers = headers
        headers.add(name: "Accept", value: "text/event-stream")
        let request = self.request("POST", url: self.endpoint.baseURL + path, headers: headers, body: Array(body.canonicalJSON().utf8))
        let reading = Locked(EventStreamReading())
        let head: HTTPResponseHead
        do {
            head = try await self.http.stream(request, timeout: self.endpoint.totalTimeout) { head, bytes in
                reading.withLock { $0.take(bytes, of: head, onEvent: onEvent) }
            }
        } catch let failure as HTTPClientError {
            throw self.classifier.error(failure)
        }
        let read = reading.withLock { $0 }
        guard (200..<300).contains(head.status) else {
            throw self.classifier.error(status: head.status, headers: head.headers, body: read.errorBody)
        }
        if let failure = read.failure { throw failure }
        guard read.closed else {
            throw ProviderError(
                kind: .truncatedStream, provider: self.classifier.provider, status: head.status,
                message: "the stream ended without its closing event", requestID: ProviderFailureClassifier.requestID(head.headers),
                isRetryable: true)
        }
        return head.headers
    }

    /// An answer that arrived but is not in the provider's documented format.
    public func malformed(_ message: String, headers: HTTPHeaders) -> ProviderError {
        ProviderError(
            kind: .malformedResponse, provider: self.classifier.provider, message: message,
            requestID: ProviderFailureClassifier.requestID(headers), isRetryable: true)
    }

    private func request(_ method: String, url: String, headers: HTTPHeaders, body: [UInt8]?) -> HTTPRequest {
        var fields = headers
        if body != nil, fields["content-type"] == nil { fields.add(name: "Content-Type", value: "application/json") }
        for (name, value) in self.endpoint.extraHeaders { fields.add(name: name, value: value) }
        return HTTPRequest(
            method: method, url: url, headers: fields, body: body, firstByteTimeout: self.endpoint.firstByteTimeout,
            idleTimeout: self.endpoint.idleTimeout)
    }
}
