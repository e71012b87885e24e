import BlockingWork
import ChatTaleInputs
import ChatVideo
import Foundation
import KilnCore
import KilnJSON
public import KilnPolicy
public import KilnQueue
public import KilnWorker

/// `video.chat_export`: ChatTale's live-typing video, rendered and encoded on the worker (see ``ChatVideoExporter``)
/// and stored as the job's artifact `chat.mp4`. Progress events follow the encoder; cancelling the job kills it. An
/// identity of the tenant's lowest tier gets the watermark.
public struct ChatExportHandler: JobHandler {
    public static let artifactName = "chat.mp4"
    private let policies: PolicySet
    private let workDirectory: String

    /// - Parameter workDirectory: where videos are encoded before they are stored; the system's temporary directory
    ///   when nil.
    public init(policies: PolicySet, workDirectory: String? = nil) {
        self.policies = policies
        self.workDirectory = workDirectory ?? NSTemporaryDirectory()
    }

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let input = try job.input(as: ChatExportInput.self)
        let watermark = policies.admittedAtLowestTier(job)
        let exporter = ChatVideoExporter(input, watermark: watermark)
        // One directory per job: what a crashed earlier attempt left there (a partial video, its sound track) goes
        // before this attempt starts, and this attempt's files when it ends.
        let directory = (workDirectory as NSString).appendingPathComponent("kiln-chat-video-\(job.id.rawValue)")
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent(Self.artifactName)

        let (fractions, reporter) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
        let result = try await withThrowingTaskGroup(of: ChatVideoExporter.Result?.self) { group in
            group.addTask {
                for await fraction in fractions { context.progress(fraction, message: "rendering") }
                return nil
            }
            group.addTask {
                defer { reporter.finish() }
                return try await exporter.export(to: path) { reporter.yield($0) }
            }
            var result: ChatVideoExporter.Result?
            for try await value in group where value != nil { result = value }
            return result!
        }
        // Read off the cooperative pool: an export is tens of megabytes.
        guard let bytes = try await BlockingExecutor.files.run({ FileManager.default.contents(atPath: path) }) else {
            throw JobFailure.retryable(code: "export_missing", message: "the encoder finished but left no video")
        }
        try await context.saveArtifact(Self.artifactName, contentType: "video/mp4", bytes: Array(bytes))
        let (width, height) = input.settings.format.size
        let video = ExportedChatVideo(
            artifact: Self.artifactName, width: width, height: height, fps: input.settings.fps, frameRate: input.settings.frameRate,
            frames: result.frames, durationSeconds: result.durationSeconds, bytes: bytes.count, watermark: watermark)
        return try JSONValue(encoding: video).canonicalJSON()
    }
}
