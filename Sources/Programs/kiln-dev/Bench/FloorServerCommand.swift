import ArgumentParser
import Hummingbird
import KilnCommandLine
import RedisClient
import ServiceLifecycle
import UnixSignals

/// `kiln-dev bench floor-server`: the bare framework's floor that `kiln-dev bench` measures Kiln's submissions against.
/// One Hummingbird POST route on `/v1/jobs` that reads the whole body and answers 202 with a small JSON body, served the
/// way Kiln's API node serves (HTTP/1.1 on the shared event loops), and nothing else: no authentication, no Redis
/// (unless asked, below).
/// `GET /readyz` answers 200 once it listens, as Kiln's does.
///
/// With `--redis-url`, the route also waits for one `PING` through Kiln's Redis client, its tasks running on the event
/// loops as the API node's do: the floor with the API's Redis round trip, so that a benchmark can tell the framework and
/// the round trip from Kiln's own work in a submission.
struct FloorServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor-server", abstract: "Serve a bare Hummingbird POST route (the benchmark's floor).", shouldDisplay: false)

    @Option(help: "Port to listen on.") var port = 8798
    @Option(help: "Redis URL: each request also waits for a PING through Kiln's client, as the API node sends its commands.")
    var redisURL: String?

    func run() async throws {
        let redis = try redisURL.map { url in
            guard let configuration = RedisConfiguration(url: url) else { throw ValidationError("--redis-url must look like redis://host:port") }
            EventLoopExecutor.install()
            return RedisPool(configuration: configuration)
        }
        let router = Router()
        router.get("/readyz") { _, _ in HTTPResponse.Status.ok }
        router.post("/v1/jobs") { request, _ -> Response in
            var request = request
            _ = try await request.collectBody(upTo: 1 << 20)
            if let redis { _ = try await redis.send(["PING"]) }
            return Response(
                status: .accepted, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"id":"00000000-0000-0000-0000-000000000000"}"#)))
        }
        let logger = Bootstrap.logger("kiln.floor")
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "floor"), logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }
}
