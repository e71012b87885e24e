import CurlClient
import Foundation
import KilnAPI
import ServiceLifecycle
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import PostgresClient
import Testing

/// Workers that die or stop: nothing is lost and nothing runs to completion twice.
@Suite struct CrashAndShutdownTests {
    @Test func aJobOfAWorkerKilledWithSigkillIsRunAgainAndRecordedOnce() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            let doomed = try WorkerProcess(harness)
            // Long enough that the doomed worker cannot finish it even if this test is slow to pull the trigger: on a
            // loaded machine 4 s were not (the job was done when the kill came, and never claimed again).
            let id = try await harness.submit(#"{"kind":"diag.sleep","input":{"seconds":15,"progress_steps":15}}"#, as: client)
            let first = try await harness.awaitRunning(id, client.tenant.id)
            #expect(first.attempt == 1)
            doomed.kill(SIGKILL)
            #expect(try await doomed.waitForExit(within: .seconds(5)))
            let killedAt = ContinuousClock.now
            harness.startWorker()
            // Default lease settings (5 s) bring the job back, to another worker; 30 s only bounds a hung test.
            var second: JobSnapshot?
            while second == nil, ContinuousClock.now - killedAt < .seconds(30) {
                if let snapshot = try await harness.queue.snapshot(id, tenant: client.tenant.id), snapshot.attempt >= 2 { second = snapshot }
                try await Task.sleep(for: .milliseconds(20))
            }
            print("a SIGKILLed worker's job was claimed again \(ContinuousClock.now - killedAt) after the kill (lease 5 s)")
            #expect(second?.attempt == 2)
            let job = try await harness.awaitFinished(id, as: client, within: .seconds(60))
            #expect(job["status"]?.stringValue == "succeeded")
            #expect(job["attempt"]?.numberValue == 2)
            let record = try await Eventually.value { try await JobStore(pool: harness.database).find(id: id, tenant: client.tenant.id) }
            #expect(record?.attempt == 2)
            #expect(record?.state == .succeeded)
            // Recorded once.
            let count = try await harness.database.query("SELECT count(*) FROM jobs WHERE id = $1::uuid", [id.rawValue])
            #expect(try count.first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func sigtermFinishesShortJobsAndHandsBackLongOnesWithoutSpendingTheAttempt() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            // The grace leaves the short job room on a loaded machine (the suites run in parallel) and ends well before
            // the long one, even when seeing both jobs running takes this test several seconds.
            let stopping = try WorkerProcess(harness, grace: 10)
            let long = try await harness.submit(#"{"kind":"diag.sleep","input":{"seconds":30,"progress_steps":30}}"#, as: client)
            let short = try await harness.submit(#"{"kind":"diag.sleep","input":{"seconds":0.5,"progress_steps":1}}"#, as: client)
            _ = try await harness.awaitRunning(long, client.tenant.id)
            _ = try await harness.awaitRunning(short, client.tenant.id, orDone: true)
            stopping.kill(SIGTERM)
            #expect(try await stopping.waitForExit(within: .seconds(20)))
            let finished = try #require(try await harness.queue.snapshot(short, tenant: client.tenant.id))
            #expect(finished.state == .succeeded)
            let handedBack = try #require(try await harness.queue.snapshot(long, tenant: client.tenant.id))
            #expect(handedBack.state == .queued)
            #expect(handedBack.tries == 0)
            harness.startWorker()
            let job = try await harness.awaitFinished(long, as: client, within: .seconds(120))
            #expect(job["status"]?.stringValue == "succeeded")
        }
    }

    @Test func anAttemptPastItsDeadlineIsStoppedAndRetried() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            harness.startWorker()
            let id = try await harness.submit(#"{"kind":"diag.sleep","input":{"seconds":30,"timeout_seconds":0.2}}"#, as: client)
            // Three attempts stopped at 0.2 s and two retry delays take seconds; the bound leaves a loaded machine
            // room, and stays well below the 90 s three attempts that were never stopped would take.
            let job = try await harness.awaitFinished(id, as: client, within: .seconds(60))
            #expect(job["status"]?.stringValue == "dead")
            #expect(job["error"]?["code"]?.stringValue == "deadline_exceeded")
            #expect(job["attempt"]?.numberValue == 3)
        }
    }

    @Test func restartingTheAPILosesNothing() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            // An API node that takes the job and stops before any worker runs.
            let port = PortBox()
            var configuration = APIConfiguration()
            configuration.port = 0
            let first = ServiceGroup(
                services: [
                    APIServer.application(dependencies: harness.dependencies(), configuration: configuration, logger: harness.logger) { port.set($0) }
                ],
                gracefulShutdownSignals: [], logger: harness.logger)
            let running = Task { try await first.run() }
            let response = try await harness.http.execute(
                CurlClient.HTTPRequest(
                    method: "POST", url: "http://127.0.0.1:\(try await port.wait())/v1/jobs",
                    headers: ["Authorization": "Bearer \(client.key)", "Kiln-Identity": "user-1", "Content-Type": "application/json"],
                    body: Array(#"{"kind":"diag.echo","input":{"message":"survives"}}"#.utf8)))
            #expect(response.status == 202)
            guard case .string(let text)? = JSONValue.parse(String(decoding: response.body, as: UTF8.self))?["id"],
                let id = JobID(validating: text)
            else { throw TestFailure("no job id") }
            await first.triggerGracefulShutdown()
            try await running.value
            // Another node answers for it, and a worker runs it.
            try await harness.startAPI()
            harness.startWorker()
            let job = try await harness.awaitFinished(id, as: client)
            #expect(job["status"]?.stringValue == "succeeded")
            #expect(job["result"]?["echo"]?["message"]?.stringValue == "survives")
        }
    }
}
