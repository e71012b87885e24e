import Foundation

/// The OpenAPI 3.1 description of the API, kept beside the code in `openapi.json`; a test holds it to the routes.
public enum OpenAPIDocument {
    public static func bytes() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "openapi.json"])
        }
        return Array(try Data(contentsOf: url))
    }
}
