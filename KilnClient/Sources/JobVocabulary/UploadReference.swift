/// Checks of the upload ids a document's input refers to pictures by.
package enum UploadReference {
    /// The longest description of a picture (`image_description`), in characters: a few sentences, as alternative text
    /// should be.
    package static let maxDescriptionCharacters = 1_000

    /// An absent id passes; a present one must look like an upload id (whether it is one of the caller's uploads is the
    /// worker's to find).
    package static func validate(_ id: String?, field: String) throws {
        guard let id, !id.isUUID else { return }
        throw InputError(field: field, reason: "is not an upload id")
    }
}
