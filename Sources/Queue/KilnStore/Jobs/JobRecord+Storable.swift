import KilnCore
import KilnJSON

extension JobRecord {
    /// This record as PostgreSQL can hold it: U+0000 in its input, result or error (what a provider answered may hold
    /// one) becomes U+FFFD. Written as it was, the batch holding it would fail whole, and again at every sweep.
    var storable: JobRecord {
        var record = self
        record.input = Self.storableJSON(input)
        record.result = result.map(Self.storableJSON)
        record.errorCode = errorCode?.replacingNUL()
        record.errorMessage = errorMessage?.replacingNUL()
        return record
    }

    private static func storableJSON(_ text: String) -> String {
        // JSON text writes U+0000 as the escape `\u0000`: only a document holding that text needs parsing.
        guard text.containsEscapedNUL, let document = JSONValue.parse(text) else { return text }
        return document.replacingNUL().canonicalJSON()
    }
}
