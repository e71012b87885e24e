import BlockingWork
import Foundation
import Hummingbird
import KilnJSON

/// `/_simulator/…`: request counts, the scenario, and the files (images) the simulator serves.
struct ControlRoutes {
    let state: SimulatorState

    func respond(to request: inout Request, path: [String]) async throws -> Response {
        switch (request.method, path) {
        case (.get, ["stats"]):
            let counts = self.state.requestCounts.mapValues { JSONValue.number(Double($0)) }
            return .json(200, .object(["requests": .object(counts)]))
        case (.get, ["scenario"]):
            return .bytes(200, Array(try JSONEncoder().encode(self.state.scenario)), contentType: "application/json")
        case (.put, ["scenario"]):
            let body = try await request.collectBody(upTo: 1 << 20)
            do {
                let scenario = try SimulatorScenario(json: Data(body.readableBytesView))
                self.state.replaceScenario(scenario)
                return .json(200, .object(["rules": .number(Double(scenario.rules.count))]))
            } catch {
                return .json(400, .object(["error": .string("not a scenario: \(error)")]))
            }
        case (.get, let path) where path.count == 2 && path[0] == "files":
            guard let image = GeneratedImage(fileName: path[1]) else { return .json(404, .object(["error": "no such file"])) }
            return .bytes(200, try await BlockingExecutor.rendering.run { image.png }, contentType: "image/png")
        default:
            return .json(404, .object(["error": .string("no simulator route \(request.method.rawValue) \(request.uri.path)")]))
        }
    }
}
