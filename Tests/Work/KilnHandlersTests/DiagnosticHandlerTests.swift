import KilnCore
import KilnJSON
import KilnQueue
import WorkerFakes
import Testing

/// The `diag.*` handlers over the worker's fakes: what a user of the diagnostics checks.
@Suite struct DiagnosticHandlerTests {
    @Test func echoAnswersWithItsInput() async throws {
        let run = try HandlerRun("diag.echo", input: #"{"message":"hello","n":[1,2]}"#)
        let result = try await run.run()
        #expect(result["echo"] == JSONValue.parse(#"{"message":"hello","n":[1,2]}"#))
        #expect(run.records.artifacts.isEmpty, "no artifact was asked for")
    }

    @Test func echoStoresTheArtifactItWasGiven() async throws {
        let run = try HandlerRun("diag.echo", input: #"{"artifact":"a note"}"#)
        _ = try await run.run()
        #expect(run.records.artifacts == ["\(run.job.id)/echo.txt": Array("a note".utf8)])
    }

    @Test(arguments: [false, true])
    func failFailsWithItsCodeRetryablyUnlessAskedToFailForGood(permanent: Bool) async throws {
        let run = try HandlerRun("diag.fail", input: #"{"permanent":\#(permanent)}"#)
        let failure = await #expect(throws: JobFailure.self) { try await run.run() }
        #expect(failure?.code == "diag_failure")
        #expect(failure?.isRetryable == !permanent)
    }

    @Test func failSucceedsOnceItsAttemptsArePassed() async throws {
        let run = try HandlerRun("diag.fail", input: #"{"times":0}"#)
        let result = try await run.run()
        #expect(result["succeeded_on_attempt"]?.intValue == 1)
    }
}
