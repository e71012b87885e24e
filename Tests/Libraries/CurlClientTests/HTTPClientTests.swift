import CurlClient
import Foundation
import Locking
import Testing

@Suite("HTTPClient against a loopback server")
struct HTTPClientTests {
    @Test func getSendsHeadersAndReadsTheResponse() async throws {
        try await withFixture { server, client in
            let request = HTTPRequest(url: server.url("/echo?x=1"), headers: ["X-Trace": "abc", "X-Empty": ""])
            let response = try await client.execute(request)
            #expect(response.status == 200)
            #expect(response.header("CONTENT-TYPE") == "application/json")
            let echo = try Echo(response)
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo?x=1")
            #expect(echo.header("x-trace") == "abc")
            #expect(echo.header("x-empty") == "")
            #expect(echo.bodyBytes == [])
        }
    }

    @Test(arguments: ["POST", "PUT", "PATCH", "DELETE"])
    func binaryBodyRoundTrips(method: String) async throws {
        // Over 1 MiB, where libcurl would otherwise send `Expect: 100-continue`; every byte value, NULs included.
        let body = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try await withFixture { server, client in
            let request = HTTPRequest(
                method: method,
                url: server.url("/echo"),
                headers: ["Content-Type": "application/octet-stream"],
                body: body
            )
            let echo = try Echo(try await client.execute(request))
            #expect(echo.method == method)
            #expect(echo.header("content-length") == String(body.count))
            #expect(echo.header("expect") == nil)
            #expect(echo.bodyBytes == body)
        }
    }

    @Test func postWithoutBodySendsAnEmptyOne() async throws {
        try await withFixture { server, client in
            let echo = try Echo(try await client.execute(HTTPRequest(method: "POST", url: server.url("/echo"))))
            #expect(echo.method == "POST")
            #expect(echo.header("content-length") == "0")
        }
    }

    @Test func hundredConcurrentRequestsAllSucceed() async throws {
        try await withFixture { server, client in
            let url = server.url("/echo")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let body = Array("request \(index)".utf8)
                        let request = HTTPRequest(method: "POST", url: url, headers: ["X-Index": "\(index)"], body: body)
                        let response = try await client.execute(request)
                        #expect(response.status == 200)
                        let echo = try Echo(response)
                        #expect(echo.header("x-index") == "\(index)")
                        #expect(echo.bodyBytes == body)
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// Each answer reaches its completion, on the client's thread, which sends the next request from there, as a load
    /// generator's lane does.
    @Test func completionsReceiveEachAnswerAndCanSendTheNext() async throws {
        try await withFixture { server, client in
            let url = server.url("/echo")
            let bodies: [[UInt8]] = try await withCheckedThrowingContinuation { continuation in
                @Sendable func send(_ index: Int, after received: [[UInt8]]) {
                    guard index < 20 else { return continuation.resume(returning: received) }
                    client.execute(HTTPRequest(method: "POST", url: url, body: Array("request \(index)".utf8))) { result in
                        do {
                            send(index + 1, after: received + [try Echo(try result.get()).bodyBytes ?? []])
                        } catch {
                            continuation.resume(throwing: error)
                        }
                    }
                }
                send(0, after: [])
            }
            #expect(bodies == (0..<20).map { Array("request \($0)".utf8) })
        }
    }

    /// Failures reach the completion on the client's thread too, an invalid request's as well, which never fails inside
    /// the call that sends it: on the same thread as a timeout's.
    @Test func completionsReceiveTimeoutsAndInvalidRequestsOnTheClientsThread() async throws {
        try await withFixture { server, client in
            func failure(of request: HTTPRequest, timeout: Duration? = nil) async -> (kind: HTTPClientError.Kind?, thread: pthread_t) {
                await withCheckedContinuation { continuation in
                    client.execute(request, timeout: timeout) { result in
                        guard case .failure(let error) = result else { return continuation.resume(returning: (nil, pthread_self())) }
                        continuation.resume(returning: (error.kind, pthread_self()))
                    }
                }
            }
            let timedOut = await failure(of: HTTPRequest(url: server.url("/slow?seconds=10")), timeout: .milliseconds(300))
            let invalid = await failure(of: HTTPRequest(url: server.url("/echo"), headers: ["X-Injected": "a\r\nHost: elsewhere"]))
            #expect(timedOut.kind == .timeout && invalid.kind == .invalidRequest)
            #expect(invalid.thread == timedOut.thread)
        }
    }

    @Test func timeoutFires() async throws {
        try await withFixture { server, client in
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.execute(HTTPRequest(url: server.url("/slow?seconds=10")), timeout: .milliseconds(300))
            }
            #expect(error?.kind == .timeout)
        }
    }

    @Test func firstByteTimeoutFiresBeforeTheTransferTimeout() async throws {
        try await withFixture { server, client in
            let request = HTTPRequest(url: server.url("/slow?seconds=10"), firstByteTimeout: .milliseconds(300))
            let error = await #expect(throws: HTTPClientError.self) { try await client.execute(request, timeout: .seconds(30)) }
            #expect(error?.kind == .timeout)
            #expect(error?.message.contains("no response within 300 ms") == true)
        }
    }

    @Test func idleTimeoutEndsAStreamThatFallsSilent() async throws {
        try await withFixture { server, client in
            let request = HTTPRequest(url: server.url("/stall?seconds=10"), idleTimeout: .seconds(2))
            let response = try await client.stream(request, timeout: .seconds(30))
            var received = ""
            let error = await #expect(throws: HTTPClientError.self) {
                for try await chunk in response.body {
                    received += String(decoding: chunk, as: UTF8.self)
                }
            }
            #expect(received == "data: 0\n\n")
            #expect(error?.kind == .timeout)
            #expect(error?.message.contains("no data for 2000 ms") == true)
        }
    }

    @Test func idleTimeoutLeavesAStreamThatKeepsTalking() async throws {
        try await withFixture { server, client in
            // Events every 100 ms for longer than the idle timeout: each one restarts the timer. The timeout is 20 events
            // long, so a loaded machine's pauses do not end the stream.
            let request = HTTPRequest(url: server.url("/stream"), idleTimeout: .seconds(2))
            let response = try await client.stream(request, timeout: .seconds(30))
            var events = 0
            for try await chunk in response.body {
                events += String(decoding: chunk, as: UTF8.self).components(separatedBy: "\n\n").count - 1
                if events >= 30 { break }
            }
            #expect(events >= 30)
        }
    }

    @Test func cancellingTheTaskCancelsTheTransfer() async throws {
        try await withFixture { server, client in
            let slow = HTTPRequest(url: server.url("/slow?seconds=10"))
            let task = Task { try await client.execute(slow) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            let error = await #expect(throws: HTTPClientError.self) { try await task.value }
            #expect(error?.kind == .cancelled)
        }
    }

    @Test func streamDeliversChunksAndEndsTheTransferWhenDropped() async throws {
        try await withFixture { server, client in
            do {
                let response = try await client.stream(HTTPRequest(url: server.url("/stream")))
                #expect(response.status == 200)
                #expect(response.header("content-type") == "text/event-stream")
                var text = ""
                var chunks = 0
                for try await chunk in response.body {
                    text += String(decoding: chunk, as: UTF8.self)
                    chunks += 1
                    if chunks == 3 { break }
                }
                #expect(text.hasPrefix("data: 0\n\ndata: 1\n\n"))
                #expect(try await Self.openStreams(server, client) == 1)
            }
            // The response is gone, so the client drops the connection and the server's next write fails.
            try await Self.expectEveryStreamClosed(server, client)
        }
    }

    @Test func streamOfAFiniteBodyFinishes() async throws {
        try await withFixture { server, client in
            let response = try await client.stream(HTTPRequest(method: "POST", url: server.url("/echo"), body: [1, 2, 3]))
            var body: [UInt8] = []
            for try await chunk in response.body {
                body += chunk
            }
            let echo = try Echo(HTTPResponse(status: response.status, headers: response.headers, body: body))
            #expect(echo.bodyBytes == [1, 2, 3])
        }
    }

    @Test func aReceiverGetsTheBodyAsItArrivesAndEndsTheTransferWhenItHasEnough() async throws {
        try await withFixture { server, client in
            let received = Locked((text: "", statuses: Set<Int>()))
            // An endless stream: the transfer ends because the receiver says it has had enough, and that is no error.
            let head = try await client.stream(HTTPRequest(url: server.url("/stream"))) { head, bytes in
                received.withLock { received in
                    received.text += String(decoding: bytes, as: UTF8.self)
                    received.statuses.insert(head.status)
                    return !received.text.contains("data: 2\n\n")
                }
            }
            #expect(head.status == 200)
            #expect(head.headers["content-type"] == "text/event-stream")
            #expect(received.withLock { $0.statuses } == [200])
            #expect(received.withLock { $0.text }.hasPrefix("data: 0\n\ndata: 1\n\ndata: 2\n\n"))
            try await Self.expectEveryStreamClosed(server, client)
        }
    }

    /// How many streams the fixture server is writing.
    private static func openStreams(_ server: FixtureServer, _ client: HTTPClient) async throws -> Int? {
        let response = try await client.execute(HTTPRequest(url: server.url("/streams")))
        return try JSONDecoder().decode([String: Int].self, from: Data(response.body))["open"]
    }

    /// Waits for the fixture server to have no stream open, as it does once the client closed their connections and
    /// its next write failed. The bound only stops a hung test: on two loaded cores the server may take seconds to be
    /// scheduled.
    private static func expectEveryStreamClosed(_ server: FixtureServer, _ client: HTTPClient) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        var open = try await openStreams(server, client)
        while open != 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            open = try await openStreams(server, client)
        }
        #expect(open == 0)
    }

    @Test func aReceiversTransferThatFailsThrows() async throws {
        try await withFixture { server, client in
            let request = HTTPRequest(url: server.url("/stall?seconds=10"), idleTimeout: .seconds(2))
            let received = Locked("")
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.stream(request, timeout: .seconds(30)) { _, bytes in
                    received.withLock { $0 += String(decoding: bytes, as: UTF8.self) }
                    return true
                }
            }
            #expect(received.withLock { $0 } == "data: 0\n\n")
            #expect(error?.kind == .timeout)
        }
    }

    @Test func connectionRefusedIsAConnectError() async throws {
        let server = try await FixtureServer()
        let url = server.url("/echo")
        try await server.stopAndWait()
        let client = try HTTPClient()
        defer { client.shutdown() }
        let request = HTTPRequest(url: url, headers: ["Authorization": "Bearer secret-token"])
        let error = await #expect(throws: HTTPClientError.self) { try await client.execute(request) }
        #expect(error?.kind == .connect)
        #expect(error.map { !$0.description.contains("secret-token") } == true)
    }

    @Test func shutdownFailsRunningAndLaterRequests() async throws {
        try await withFixture { server, client in
            let slow = HTTPRequest(url: server.url("/slow?seconds=10"))
            let running = Task { try await client.execute(slow) }
            try await Task.sleep(for: .milliseconds(200))
            client.shutdown()
            client.shutdown()
            let runningError = await #expect(throws: HTTPClientError.self) { try await running.value }
            #expect(runningError?.kind == .shutdown)
            let laterError = await #expect(throws: HTTPClientError.self) {
                try await client.execute(HTTPRequest(url: server.url("/echo")))
            }
            #expect(laterError?.kind == .shutdown)
        }
    }

    @Test func headerWithALineBreakIsRejected() async throws {
        let client = try HTTPClient()
        defer { client.shutdown() }
        let request = HTTPRequest(url: "http://127.0.0.1:1/", headers: ["X-Injected": "a\r\nHost: elsewhere"])
        let error = await #expect(throws: HTTPClientError.self) { try await client.execute(request) }
        #expect(error?.kind == .invalidRequest)
    }
}

@Suite struct HTTPHeadersTests {
    @Test func lookupIgnoresCaseAndKeepsOrderAndDuplicates() {
        var headers: HTTPHeaders = ["Set-Cookie": "a=1", "Content-Type": "text/plain"]
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["SET-COOKIE"] == "a=1")
        #expect(headers["missing"] == nil)
        #expect(headers.map(\.value) == ["a=1", "text/plain", "b=2"])
    }
}
