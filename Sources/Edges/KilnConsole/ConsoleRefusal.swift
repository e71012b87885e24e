import HTTPTypes

/// Why the console will not do what was asked, shown as a page with its status: a bad form, a viewer acting, a missing
/// job. Nothing the operator sends makes a `500`.
struct ConsoleRefusal: Error {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }
}
