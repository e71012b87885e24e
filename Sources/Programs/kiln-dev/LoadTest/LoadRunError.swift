/// Why a load run stopped before its audit: a generator or the API node it started misbehaved.
struct LoadRunError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
