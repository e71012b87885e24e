import Foundation
import HTTPTypes
import Hummingbird
import KilnQueue
import NIOCore
import ServiceFailures

/// Health, readiness, metrics and the OpenAPI document; no credentials needed.
struct OperationRoutes<Context: RequestContext> {
    let dependencies: APIDependencies

    func register(on router: Router<Context>) {
        router.get("/healthz", use: health)
        router.get("/readyz", use: ready)
        router.get("/metrics", use: metrics)
        router.get("/openapi.json", use: openAPI)
    }

    @Sendable func health(_ request: Request, context: Context) async throws -> Response {
        try .json(StatusAnswer.alive, status: .ok)
    }

    /// Ready when Redis and PostgreSQL both answer.
    @Sendable func ready(_ request: Request, context: Context) async throws -> Response {
        try await dependencies.health.ping()
        do {
            try await dependencies.checkDatabase()
        } catch {
            throw Problem.unavailable(.postgres)
        }
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
