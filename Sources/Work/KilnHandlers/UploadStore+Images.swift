import Foundation
import KilnCore
import KilnQueue
import KilnStore

extension UploadStore {
    /// The images a job references by upload id, in order, as the job's identity uploaded them. An id that is not one
    /// of its uploads, or an upload that is not an image, fails the job for good: no retry will make it appear.
    func images(_ ids: [String], of job: ClaimedJob) async throws -> [(mediaType: String, data: [UInt8])] {
        var images: [(mediaType: String, data: [UInt8])] = []
        for id in ids {
            guard let uuid = UUID(uuidString: id), let upload = try await find(id: uuid, tenant: job.tenant, identity: job.identity) else {
                throw JobFailure.permanent(code: "upload_not_found", message: "no upload \(id) of this identity")
            }
            guard upload.contentType.hasPrefix("image/") else {
                throw JobFailure.permanent(code: "upload_not_an_image", message: "upload \(id) is \(upload.contentType), not an image")
            }
            images.append((upload.contentType, try await read(upload)))
        }
        return images
    }
}
