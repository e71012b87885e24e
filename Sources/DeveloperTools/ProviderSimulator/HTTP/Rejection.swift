import Hummingbird

/// An answer that ends a request early (a 401, a 400 for a malformed body), thrown so route code reads as its
/// happy path; the responder returns the response it carries.
struct Rejection: Error {
    let response: Response

    init(_ response: Response) {
        self.response = response
    }
}
