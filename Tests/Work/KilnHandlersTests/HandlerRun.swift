import KilnCore
import KilnHandlers
import KilnJSON
import KilnProviders
import KilnQueue
import KilnWorker
import Testing
import WorkerFakes

/// One attempt of a kind's handler, made from its definition as a worker makes it and run over the worker's fakes:
/// its events land on `source`, its artifacts in `records`, its provider usage in `usage`.
struct HandlerRun {
    let source = MemoryWorkSource()
    let records = MemoryRecords()
    let usage = MemoryUsage()
    let job: ClaimedJob

    init(_ kind: String, input: String) throws {
        self.job = try MemoryWorkSource.job(kind: kind, input: input)
    }

    /// Runs the handler, with `provider` answering every text route; returns its result.
    func run(provider: (any TextProvider)? = nil) async throws -> JSONValue {
        let definition = try #require(KindDefinition.all.first { $0.kind.name == job.kind })
        let dependencies = HandlerDependencies(routing: provider.map { OneProviderRoutes(answering: $0) }, usage: usage)
        let handler = try definition.handler(with: dependencies)
        let result = try await handler.run(job, context: JobContext(queue: source, records: records, job: job))
        return try #require(JSONValue.parse(result), "the result is JSON")
    }

    /// The job's events of `type`, in the order the queue took them.
    func events(_ type: String) -> [MemoryWorkSource.Event] {
        source.events(of: job.id).filter { $0.type == type }
    }

    /// The text of the job's `delta` events joined per choice, in the order they were emitted.
    func streamedText() throws -> [Int: String] {
        var texts: [Int: String] = [:]
        for event in events("delta") {
            let data = try #require(JSONValue.parse(event.data))
            let text = try #require(data["text"]?.stringValue)
            texts[data["choice"]?.intValue ?? 0, default: ""] += text
        }
        return texts
    }
}
