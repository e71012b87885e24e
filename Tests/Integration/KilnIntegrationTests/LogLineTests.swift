import KilnCommandLine
import Locking
import Logging
import Testing

/// What the processes print: a logger's metadata kept aside until a line is written prints the same line as
/// swift-log's own stream handler holding it.
@Suite struct LogLineTests {
    /// Collects what a handler writes.
    final class Lines: TextOutputStream, Sendable {
        private let text = Locked("")
        var written: String { text.withLock { $0 } }
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    @Test func aLoggersMetadataPrintsAsTheStreamHandlerPrintsIt() {
        let deferred = Lines()
        let eager = Lines()
        var deferredLogger = Logger(label: "kiln.test") { label in
            DeferredMetadataLogHandler(StreamLogHandler(label: label, stream: deferred, metadataProvider: nil))
        }
        var eagerLogger = Logger(label: "kiln.test") { label in StreamLogHandler(label: label, stream: eager, metadataProvider: nil) }
        deferredLogger[metadataKey: "hb.request.id"] = "7f"
        eagerLogger[metadataKey: "hb.request.id"] = "7f"
        deferredLogger[metadataKey: "job.id"] = "a"
        eagerLogger[metadataKey: "job.id"] = "a"
        deferredLogger.info("claimed", metadata: ["job.id": "b", "attempt": "2"])
        eagerLogger.info("claimed", metadata: ["job.id": "b", "attempt": "2"])
        deferredLogger.debug("below the level")
        eagerLogger.debug("below the level")

        // The timestamp leads each line; the rest must match.
        let withoutTime = { (text: String) in text.split(separator: "\n").map { $0.drop { $0 != " " } } }
        #expect(withoutTime(deferred.written) == withoutTime(eager.written))
        #expect(deferred.written.contains("attempt=2 hb.request.id=7f job.id=b [KilnIntegrationTests] claimed"))
    }
}
