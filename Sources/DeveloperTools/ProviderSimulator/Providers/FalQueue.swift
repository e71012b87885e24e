import Foundation
import Hummingbird
import KilnJSON

/// fal.ai's queue API (§5 of the wire-format reference): submit to `/{owner}/{app}[/{subpath}]`, poll
/// `/{owner}/{app}/requests/{id}/status`, fetch `/{owner}/{app}/requests/{id}`, cancel with a PUT to `…/cancel`.
/// Status, result and cancel URLs use only `owner/app`, as fal's do.
enum FalQueue {
    static func respond(to request: inout Request, path: [String], responder: SimulatorResponder) async throws -> Response {
        let application = "\(path[0])/\(path[1])"
        let rest = Array(path.dropFirst(2))
        let route: String
        let targetsRequest = rest.first == "requests" && rest.count >= 2
        switch request.method {
        case .post where !targetsRequest: route = "fal.submit"
        case .get where targetsRequest && rest.count == 3 && rest[2] == "status": route = "fal.status"
        case .get where targetsRequest && rest.count == 2: route = "fal.result"
        case .put where targetsRequest && rest.count == 3 && rest[2] == "cancel": route = "fal.cancel"
        default: return .json(404, .object(["detail": .string("Path \(request.uri.path) not found")]))
        }
        let exchange = try await responder.exchange(&request, route: route, provider: .fal)
        guard let authorization = exchange.header("authorization"), authorization.hasPrefix("Key "), authorization.count > 4 else {
            throw Rejection(exchange.provider.errorResponse(status: 401, requestID: exchange.requestID))
        }
        let input: JSONValue? = route == "fal.submit" ? try exchange.json() : nil
        let fault = try exchange.fault(model: application, prompt: input?["prompt"]?.stringValue)
        if let response = try await exchange.interrupt(for: fault) { return response }
        let base = "http://\(request.head.authority ?? "\(responder.configuration.host):\(responder.configuration.port)")"
        let steps = max(responder.configuration.falPollsToComplete, 1)

        if let input {
            guard input["prompt"]?.stringValue?.isEmpty == false else {
                throw Rejection(exchange.provider.errorResponse(status: 422, message: "field required", requestID: exchange.requestID))
            }
            let id = self.requestID(sequence: exchange.sequence)
            let submitted = FalRequest(application: application, input: input)
            responder.state.submitFal(id: id, request: submitted)
            let urls = self.urls(base: base, application: application, id: id)
            var body: [String: JSONValue] = [
                "request_id": .string(id), "response_url": .string(urls.response), "status_url": .string(urls.status),
                "cancel_url": .string(urls.cancel), "status": "IN_QUEUE",
            ]
            if case .inQueue(let position) = submitted.status(steps: steps) { body["queue_position"] = .number(Double(position)) }
            return exchange.answer(.object(body), fault: fault)
        }

        let id = rest[1]
        let notFound = Rejection(exchange.provider.errorResponse(status: 404, message: "Request \(id) not found", requestID: exchange.requestID))
        let urls = self.urls(base: base, application: application, id: id)
        switch route {
        case "fal.status":
            guard let queued = responder.state.pollFal(id: id), queued.application == application else { throw notFound }
            let logs: JSONValue = exchange.query("logs") == "1" ? self.logs(polls: queued.polls) : .null
            switch queued.status(steps: steps) {
            case .inQueue(let position):
                return exchange.answer(
                    .object(["status": "IN_QUEUE", "queue_position": .number(Double(position)), "response_url": .string(urls.response)]),
                    fault: fault,
                    status: 202)
            case .inProgress:
                return exchange.answer(
                    .object(["status": "IN_PROGRESS", "logs": logs, "response_url": .string(urls.response)]), fault: fault, status: 202)
            case .completed:
                var body: [String: JSONValue] = [
                    "status": "COMPLETED", "logs": logs, "response_url": .string(urls.response),
                    "metrics": .object(["inference_time": .number(1.42)]),
                ]
                if queued.cancelled { body["error"] = "Request was cancelled" }
                return exchange.answer(.object(body), fault: fault)
            }
        case "fal.result":
            guard let queued = responder.state.falRequest(id: id), queued.application == application else { throw notFound }
            guard queued.status(steps: steps) == .completed else {
                throw Rejection(exchange.provider.errorResponse(status: 400, message: "Request is still in progress", requestID: exchange.requestID))
            }
            if queued.cancelled {
                throw Rejection(exchange.provider.errorResponse(status: 400, message: "Request was cancelled", requestID: exchange.requestID))
            }
            return exchange.answer(self.result(queued, base: base), fault: fault)
        default:
            guard let queued = responder.state.cancelFal(id: id, steps: steps), queued.application == application else { throw notFound }
            if queued.status(steps: steps) == .completed {
                return .json(400, .object(["status": "ALREADY_COMPLETED"]), headers: [(exchange.requestID.header, exchange.requestID.value)])
            }
            return .json(202, .object(["status": "CANCELLATION_REQUESTED"]), headers: [(exchange.requestID.header, exchange.requestID.value)])
        }
    }

    /// A request id shaped like fal's (a UUID), deterministic in the request's ordinal.
    static func requestID(sequence: UInt64) -> String {
        let hex = Provider.identifier("", seed: "fal/\(sequence)", length: 32, alphabet: Provider.hex)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    static func urls(base: String, application: String, id: String) -> (response: String, status: String, cancel: String) {
        let response = "\(base)/\(application)/requests/\(id)"
        return (response, response + "/status", response + "/cancel")
    }

    static func logs(polls: Int) -> JSONValue {
        .array(
            (1...max(polls, 1)).map { step in
                .object([
                    "message": .string("step \(step * 7)/28"), "timestamp": .string(Provider.rfc3339(Date())), "labels": .object(["level": "INFO"]),
                ])
            })
    }

    /// The model output: images served by the simulator, sized by `image_size` (an enum or `{width, height}`)
    /// or `aspect_ratio`.
    static func result(_ request: FalRequest, base: String) -> JSONValue {
        let input = request.input
        let prompt = FaultDirective.stripped(input["prompt"]?.stringValue ?? "")
        let size = self.size(input)
        let count = min(max(input["num_images"]?.intValue ?? 1, 1), 4)
        let seed = input["seed"]?.intValue ?? Int(SeededGenerator.fnv1a(prompt) % 4_294_967_296)
        let images: [JSONValue] = (0..<count).map { index in
            let image = GeneratedImage(prompt: "\(request.application)\n\(prompt)\n\(seed)", index: index, width: size.width, height: size.height)
            return .object([
                "url": .string("\(base)/_simulator/files/\(image.fileName)"), "width": .number(Double(image.width)),
                "height": .number(Double(image.height)), "content_type": "image/png",
            ])
        }
        return .object([
            "images": .array(images), "timings": .object(["inference": .number(1.42)]), "seed": .number(Double(seed)),
            "has_nsfw_concepts": .array(Array(repeating: .bool(false), count: count)), "prompt": .string(prompt),
        ])
    }

    static func size(_ input: JSONValue) -> (width: Int, height: Int) {
        if let width = input["image_size"]?["width"]?.intValue, let height = input["image_size"]?["height"]?.intValue {
            return (min(max(width, 1), GeneratedImage.maxSide), min(max(height, 1), GeneratedImage.maxSide))
        }
        switch input["image_size"]?.stringValue ?? input["aspect_ratio"]?.stringValue {
        case "square_hd", "1:1": return (1024, 1024)
        case "square": return (512, 512)
        case "portrait_4_3", "3:4": return (768, 1024)
        case "portrait_16_9", "9:16": return (576, 1024)
        case "landscape_16_9", "16:9": return (1024, 576)
        case "21:9": return (1536, 640)
        case "9:21": return (640, 1536)
        case "3:2": return (1024, 683)
        case "2:3": return (683, 1024)
        default: return (1024, 768)  // landscape_4_3, fal's default
        }
    }
}
