import Foundation

/// The OpenAPI 3.1 description of the API, kept beside the code in `openapi.json`; a test holds it to the routes.
public enum OpenAPIDocument {
    /// The document's bytes, read from the bundle once: the API node's tasks run on its event loops, where no request
    /// may wait on the disk.
    public static func bytes() throws -> [UInt8] {
        try loaded.get()
    }

    private static let loaded = Result<[UInt8], any Error> {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "openapi.json"])
        }
        return Array(try Data(contentsOf: url))
    }
}
