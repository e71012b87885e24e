import Foundation
import JobVocabulary

/// A job's events as they happen, from ``Kiln/events(of:)``, ending with ``JobEvent/succeeded(_:)``; a job that ends
/// otherwise throws its ``KilnError``. A dropped connection is resumed after the last whole event (`Last-Event-ID`),
/// after a growing pause, so nothing is lost and nothing repeats; it throws only after
/// ``KilnConfiguration/maxReconnectAttempts`` reconnections in a row brought nothing.
public struct JobEvents<Result: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = JobEvent<Result>

    let kiln: Kiln
    let job: SubmittedJob<Result>

    public func makeAsyncIterator() -> Iterator {
        Iterator(kiln: kiln, job: job)
    }

    public struct Iterator: AsyncIteratorProtocol {
        private let kiln: Kiln
        private let job: SubmittedJob<Result>
        /// The id of the last whole event passed on, where a reconnection resumes.
        private var lastEventID: String?
        private var body: AsyncThrowingStream<Data, any Error>.AsyncIterator?
        private var parser = ServerSentEventParser()
        private var ready: [ServerSentEventParser.Event] = []
        /// Reconnections in a row that brought no event.
        private var fruitlessReconnections = 0
        /// Whether the current connection brought an event.
        private var connectionBroughtEvents = false
        /// Whether the current connection brought any bytes, a piece of an event included.
        private var connectionBroughtBytes = false
        private var finished = false

        init(kiln: Kiln, job: SubmittedJob<Result>) {
            self.kiln = kiln
            self.job = job
        }

        public mutating func next() async throws -> JobEvent<Result>? {
            while !finished {
                if !ready.isEmpty {
                    let event = ready.removeFirst()
                    if let id = event.id { lastEventID = id }
                    fruitlessReconnections = 0
                    connectionBroughtEvents = true
                    if let typed = try await typed(event) { return typed }
                    continue
                }
                if var stream = body {
                    do {
                        if let chunk = try await stream.next() {
                            body = stream
                            connectionBroughtBytes = connectionBroughtBytes || !chunk.isEmpty
                            ready = parser.feed(chunk)
                            continue
                        }
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch {
                        // The connection broke: what came of a half-sent event is dropped and sent again after
                        // lastEventID.
                    }
                    body = nil
                    parser = ServerSentEventParser()
                    // A connection that brought nothing: the job may have ended with its last event already read, or
                    // expired with its stream, and then the job itself says how it ended. One that broke inside an
                    // event has more to bring, however the job ended: the next connection brings what follows the
                    // last whole event. Either way it counts as fruitless unless an event came whole.
                    if !connectionBroughtEvents {
                        if !connectionBroughtBytes, let ending = try await endingIfFinished() { return ending }
                        fruitlessReconnections += 1
                    }
                    guard fruitlessReconnections <= kiln.configuration.maxReconnectAttempts else {
                        throw KilnError(
                            code: "connection_failed", detail: "the event stream of job \(job.id) broke \(fruitlessReconnections) times in a row")
                    }
                    try await Task.sleep(for: RetryPlan.backoff(fruitlessReconnections))
                }
                connectionBroughtEvents = false
                connectionBroughtBytes = false
                let headers = lastEventID.map { [("Last-Event-ID", $0)] } ?? []
                body = try await kiln.send(.events, ["id": job.id.rawValue], headers: headers).body.makeAsyncIterator()
            }
            return nil
        }

        /// The event typed; nil for one the client does not know (a newer server's).
        private mutating func typed(_ event: ServerSentEventParser.Event) async throws -> JobEvent<Result>? {
            let data = Data(event.data.utf8)
            switch event.type {
            case "status":
                let status = try Kiln.decode(StatusData<Result>.self, from: data, route: .events)
                guard status.state.isTerminal else { return .status(status.state, attempt: status.attempt ?? 0) }
                if status.state == .succeeded, let result = status.result {
                    finished = true
                    return .succeeded(result)
                }
                return try await endingIfFinished()
            case "progress":
                return .progress(try Kiln.decode(JobProgress.self, from: data, route: .events))
            case "delta":
                let delta = try Kiln.decode(DeltaData.self, from: data, route: .events)
                return .delta(delta.text, choice: delta.choice ?? 0)
            case "retract":
                return .retract(reason: try Kiln.decode(RetractData.self, from: data, route: .events).reason)
            default:
                return nil
            }
        }

        /// For a finished job, how it ended: its result, or its failure thrown; nil while it runs.
        private mutating func endingIfFinished() async throws -> JobEvent<Result>? {
            let current = try await kiln.job(job)
            guard current.status.isTerminal else { return nil }
            finished = true
            guard current.status == .succeeded, let result = current.result else { throw current.endingFailure }
            return .succeeded(result)
        }
    }
}

/// The data of a `status` event; the last one of a succeeded job carries its result.
private struct StatusData<Result: Decodable>: Decodable {
    let state: JobState
    let attempt: Int?
    let result: Result?
}

private struct DeltaData: Decodable {
    let text: String
    let choice: Int?
}

private struct RetractData: Decodable {
    let reason: String
}
