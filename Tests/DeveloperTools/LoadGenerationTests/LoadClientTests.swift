import Foundation
import Hummingbird
import LoadGeneration
import Logging
import NIOCore
import Testing

/// The load generators' HTTP client against a real Hummingbird server, and against a bare socket that hangs up.
@Suite struct LoadClientTests {
    @Test func everyAnswerReachesItsOwnRequestOverKeptAliveConnections() async throws {
        try await withServer { url in
            let client = try LoadClient(url: url, connections: 4)
            defer { client.shutdown() }
            let answers = try await withThrowingTaskGroup(of: (sent: String, answer: LoadResponse).self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let text = "request \(index)"
                        return (text, try await client.send(client.request("POST", "/echo", body: Array(text.utf8))))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 200)
            for (sent, answer) in answers {
                #expect(answer.status == 201)
                #expect(String(decoding: answer.body, as: UTF8.self) == sent)
            }
            // Four connections at most, each kept for the next request: the server saw at most four client ports.
            let ports = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<40 { group.addTask { String(decoding: try await client.send(client.request("GET", "/peer")).body, as: UTF8.self) } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(!ports.isEmpty && ports.count <= 4)
        }
    }

    @Test func statusesAndEmptyBodiesComeBackAsTheServerWroteThem() async throws {
        try await withServer { url in
            let client = try LoadClient(url: url, connections: 2)
            defer { client.shutdown() }
            let refused = try await client.send(client.request("GET", "/status/429"))
            #expect(refused.status == 429)
            #expect(String(decoding: refused.body, as: UTF8.self) == "status 429")
            let accepted = try await client.send(client.request("POST", "/empty", body: Array("{}".utf8)))
            #expect(accepted.status == 202)
            #expect(accepted.body.isEmpty)
        }
    }

    @Test func anAnswerLaterThanTheTimeoutFailsOnlyItsRequest() async throws {
        try await withServer { url in
            let client = try LoadClient(url: url, connections: 1)
            defer { client.shutdown() }
            // The route answers after 5 s.
            await #expect(throws: LoadClientError.self) { try await client.send(client.request("GET", "/slow"), timeout: .milliseconds(500)) }
            // The late connection was closed; the next request opens another and is answered.
            #expect(try await client.send(client.request("GET", "/status/200")).status == 200)
        }
    }

    @Test func aStreamedAnswerIsRefusedWithTheReason() async throws {
        try await withServer { url in
            let client = try LoadClient(url: url, connections: 1)
            defer { client.shutdown() }
            let error = await #expect(throws: LoadClientError.self) { try await client.send(client.request("GET", "/streamed")) }
            #expect(error?.description.contains("Transfer-Encoding") == true)
        }
    }

    @Test func aServerThatHangsUpFailsTheRequestInsteadOfWaiting() async throws {
        let listener = try HangingUpListener()
        defer { listener.close() }
        let client = try LoadClient(url: "http://127.0.0.1:\(listener.port)", connections: 1)
        defer { client.shutdown() }
        await #expect(throws: LoadClientError.self) { try await client.send(client.request("GET", "/")) }
    }

    @Test func onlyPlainHTTPURLsAreTaken() {
        #expect(throws: LoadClientError.self) { try LoadClient(url: "https://127.0.0.1:8443", connections: 1) }
        #expect(throws: LoadClientError.self) { try LoadClient(url: "not a url", connections: 1) }
    }

    @Test func requestsAfterShutdownFailAtOnce() async throws {
        let client = try LoadClient(url: "http://127.0.0.1:9", connections: 1)
        client.shutdown()
        await #expect(throws: LoadClientError.self) { try await client.send(client.request("GET", "/")) }
    }
}

/// A request context that knows the client's address, so a route can tell the connections apart.
private struct PeerContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Runs `body` with the URL of a fresh Hummingbird server on a free port, and stops the server afterwards.
private func withServer(_ body: (String) async throws -> Void) async throws {
    let router = Router(context: PeerContext.self)
    router.post("echo") { request, _ in
        let bytes = try await request.body.collect(upTo: 1 << 20)
        return Response(status: .created, body: ResponseBody(byteBuffer: bytes))
    }
    router.post("empty") { _, _ in Response(status: .accepted) }
    router.get("status/{code}") { _, context in
        let code = try context.parameters.require("code", as: Int.self)
        return Response(status: .init(code: code), body: ResponseBody(byteBuffer: ByteBuffer(string: "status \(code)")))
    }
    router.get("peer") { _, context in String(context.remoteAddress?.port ?? 0) }
    router.get("slow") { _, _ in
        try await Task.sleep(for: .seconds(5))
        return "late"
    }
    router.get("streamed") { _, _ in
        Response(status: .ok, body: ResponseBody { writer in try await writer.write(ByteBuffer(string: "part")) })
    }
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    var logger = Logger(label: "load-client-test")
    logger.logLevel = .critical
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        }, logger: logger)
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    defer { server.cancel() }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next(), "the server did not start")
    try await body("http://127.0.0.1:\(port)")
}
