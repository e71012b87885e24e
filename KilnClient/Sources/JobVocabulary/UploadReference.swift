/// Checks of the upload ids a document's input refers to pictures by.
package enum UploadReference {
    /// An absent id passes; a present one must look like an upload id (whether it is one of the caller's uploads is the
    /// worker's to find).
    package static func validate(_ id: String?, field: String) throws {
        guard let id, !id.isUUID else { return }
        throw InputError(field: field, reason: "is not an upload id")
    }
}
