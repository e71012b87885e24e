import Foundation
import HTTPTypes
import Hummingbird
import KilnQueue
import NIOCore
import ServiceFailures

/// Health, readiness, metrics and the OpenAPI document; no credentials needed.
struct OperationRoutes<Context: RequestContext> {
    let dependencies: APIDependencies
    let configuration: APIConfiguration

    func register(on router: Router<Context>) {
        router.get("/healthz", use: health)
        router.get("/readyz", use: ready)
        router.get("/metrics", use: metrics)
        router.get("/openapi.json", use: openAPI)
    }

    @Sendable func health(_ request: Request, context: Context) async throws -> Response {
        try .json(StatusAnswer.alive(configuration), status: .ok)
    }

    /// Ready while Redis answers. `kiln api` listens only once Redis and PostgreSQL have both answered; a later
    /// outage of PostgreSQL leaves the node ready, since intake needs only Redis (keys are served from their cache):
    /// a load balancer that took every node out of rotation would stop intake too.
    @Sendable func ready(_ request: Request, context: Context) async throws -> Response {
        try await dependencies.health.ping()
        return try .json(StatusAnswer.ready, status: .ok)
    }

    @Sendable func metrics(_ request: Request, context: Context) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4"
        let text = dependencies.metricsText() + QueueMetrics.text(try await dependencies.health.stats())
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    @Sendable func openAPI(_ request: Request, context: Context) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try OpenAPIDocument.bytes())))
    }
}
