import Dispatch
import HTTPTypes
import Hummingbird
import Metrics

/// Counts and times every request under the names and dimensions of Hummingbird's `MetricsMiddleware`
/// (`hb.requests`, `http.server.request.duration`, `hb.request.errors`, `http.server.active_requests`), without
/// making every answer a streamed body. Hummingbird's records once the body is written, by wrapping it in a closure,
/// and a wrapped body is written head first, then body, each its own system call; an answer in one buffer goes out
/// in one. So an answer of known length is counted when it is ready (writing it adds no time worth a histogram
/// bucket), and only one of unknown length, an event stream, is wrapped and counted when it ends.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private struct Endpoint: Hashable, Sendable {
        let route: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
    }

    private struct EndpointMetrics: Sendable {
        let requests: Counter
        let duration: Timer
        let errors: Counter

        init(_ endpoint: Endpoint) {
            let dimensions = [
                ("http.route", endpoint.route), ("http.request.method", endpoint.method.rawValue),
                ("http.response.status_code", String(endpoint.status.code)),
            ]
            requests = Counter(label: "hb.requests", dimensions: dimensions)
            duration = Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            errors = Counter(
                label: "hb.request.errors",
                dimensions: [
                    ("http.route", endpoint.route), ("http.request.method", endpoint.method.rawValue),
                    ("error.type", String(endpoint.status.code)),
                ])
        }
    }

    private let endpoints = MetricHandles<Endpoint, EndpointMetrics>(EndpointMetrics.init)
    private let active = MetricHandles<HTTPRequest.Method, Meter> { method in
        Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let active = self.active[request.method]
        active.increment()
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let metrics = endpoints[Endpoint(route: context.endpointPath ?? "NotFound", method: request.method, status: status)]
            metrics.requests.increment()
            metrics.errors.increment()
            active.decrement()
            throw error
        }
        let metrics = endpoints[Endpoint(route: context.endpointPath ?? "Unknown", method: request.method, status: response.status)]
        let finished = { @Sendable in
            metrics.requests.increment()
            metrics.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - started)
            active.decrement()
        }
        guard response.body.contentLength == nil else {
            finished()
            return response
        }
        let body = response.body
        response.body = ResponseBody { writer in
            defer { finished() }
            try await body.write(writer)
        }
        return response
    }
}
