import ChatVideo
import Documents
import Foundation
import KilnCore

/// The cover as the share card draws it: Cairo decodes PNG only, so a JPEG cover is converted by `ffmpeg` first.
enum CoverPicture {
    /// `image` itself when it is a PNG; otherwise the same picture converted to PNG. Blocking: run it on a thread of
    /// its own.
    static func png(_ image: DocumentImage, in directory: String) throws -> DocumentImage {
        guard image.format == .jpeg else { return image }
        let output = (directory as NSString).appendingPathComponent("\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let converter = try FFmpegProcess(arguments: ["-hide_banner", "-v", "error", "-f", "jpeg_pipe", "-i", "-", "-frames:v", "1", "-y", output])
        do {
            try image.data.withUnsafeBytes { try converter.write($0) }
            _ = try converter.finish()
        } catch let error as FFmpegError {
            // A JPEG whose header reads but whose picture does not decode: another attempt would fail the same way.
            throw JobFailure.permanent(code: "upload_not_an_image", message: "the cover does not decode as a JPEG (\(error.kind))")
        }
        guard let png = FileManager.default.contents(atPath: output) else {
            throw JobFailure.retryable(code: "cover_conversion_failed", message: "ffmpeg wrote no PNG for the cover")
        }
        return try DocumentImage(baseName: image.name.split(separator: ".")[0].description, data: Array(png))
    }
}
