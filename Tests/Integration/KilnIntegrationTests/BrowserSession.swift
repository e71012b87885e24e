import CurlClient
import Foundation
import KilnJSON
import Testing

/// A headless Chromium driven over the W3C WebDriver protocol (the few commands the console's tests use), through
/// a ``ChromeDriver``.
struct BrowserSession {
    /// An element of the page, as WebDriver names it.
    struct Element {
        let id: String
    }

    /// The key under which WebDriver returns an element's id.
    private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    private let http: HTTPClient
    private let base: String

    /// Opens headless Chromium with a window of `width`×`height` CSS pixels.
    init(driver: ChromeDriver, http: HTTPClient, width: Int, height: Int) async throws {
        self.http = http
        let options: JSONValue = .object([
            "args": .array(
                ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=\(width),\(height)", "--force-device-scale-factor=1"].map {
                    .string($0)
                })
        ])
        let created = try await Self.command(
            http, "POST", driver.url + "/session",
            .object(["capabilities": .object(["alwaysMatch": .object(["browserName": "chrome", "goog:chromeOptions": options])])]))
        guard case .string(let id)? = created["sessionId"] else { throw TestFailure("WebDriver made no session: \(created)") }
        base = driver.url + "/session/" + id
    }

    /// Loads `url` and waits for the page to load.
    func open(_ url: String) async throws {
        _ = try await command("POST", "/url", .object(["url": .string(url)]))
    }

    /// The address of the page shown.
    func currentURL() async throws -> String {
        try await command("GET", "/url").stringValue ?? ""
    }

    /// The page's HTML as it is now.
    func source() async throws -> String {
        try await command("GET", "/source").stringValue ?? ""
    }

    /// The first element matching the CSS `selector`; nil when none does.
    func find(_ selector: String) async throws -> Element? {
        try await findAll(selector).first
    }

    /// Every element matching the CSS `selector`, in document order.
    func findAll(_ selector: String) async throws -> [Element] {
        let found = try await command("POST", "/elements", .object(["using": "css selector", "value": .string(selector)]))
        return (found.arrayValue ?? []).compactMap { $0[Self.elementKey]?.stringValue.map(Element.init) }
    }

    /// The first element matching `selector`, waiting for one while the page that follows a click loads (a form's
    /// submission may start after the click has returned); fails the test when none comes within a minute.
    func element(_ selector: String) async throws -> Element {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let element = try await find(selector) { return element }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("no element matches \(selector) on \(try await currentURL())")
    }

    /// Clicks `element` (and, when that submits a form, waits for the next page to load).
    func click(_ element: Element) async throws {
        _ = try await command("POST", "/element/\(element.id)/click", .object([:]))
    }

    /// Types `text` into `element`.
    func type(_ text: String, into element: Element) async throws {
        _ = try await command("POST", "/element/\(element.id)/value", .object(["text": .string(text)]))
    }

    /// The text `element` shows.
    func text(of element: Element) async throws -> String {
        try await command("GET", "/element/\(element.id)/text").stringValue ?? ""
    }

    /// The value of `element`'s attribute `name`; nil when it has none.
    func attribute(_ name: String, of element: Element) async throws -> String? {
        try await command("GET", "/element/\(element.id)/attribute/\(name)").stringValue
    }

    /// The value of the browser's cookie `name` for the page shown, `HttpOnly` ones included; nil when it has none.
    func cookie(_ name: String) async throws -> String? {
        let cookies = try await command("GET", "/cookie")
        return (cookies.arrayValue ?? []).first { $0["name"]?.stringValue == name }?["value"]?.stringValue
    }

    /// Resizes the window to `width`×`height` CSS pixels.
    func resize(width: Int, height: Int) async throws {
        _ = try await command("POST", "/window/rect", .object(["width": .number(Double(width)), "height": .number(Double(height))]))
    }

    /// Runs the JavaScript function body `script` in the page and returns what it returns.
    func run(_ script: String) async throws -> JSONValue {
        try await command("POST", "/execute/sync", .object(["script": .string(script), "args": .array([])]))
    }

    /// The visible part of the page as a PNG.
    func screenshot() async throws -> Data {
        guard let encoded = try await command("GET", "/screenshot").stringValue, let png = Data(base64Encoded: encoded) else {
            throw TestFailure("WebDriver returned no screenshot")
        }
        return png
    }

    /// Closes the browser.
    func close() async throws {
        _ = try await command("DELETE", "")
    }

    private func command(_ method: String, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        try await Self.command(http, method, base + path, body)
    }

    /// Sends a WebDriver command and returns its `value`; a WebDriver error fails the test with its message.
    private static func command(_ http: HTTPClient, _ method: String, _ url: String, _ body: JSONValue?) async throws -> JSONValue {
        let request = HTTPRequest(
            method: method, url: url, headers: ["Content-Type": "application/json"], body: body.map { Array($0.canonicalJSON().utf8) })
        let response = try await http.execute(request, timeout: .seconds(120))
        let reply = JSONValue.parse(String(decoding: response.body, as: UTF8.self))
        guard response.status == 200, let value = reply?["value"] else {
            throw TestFailure("WebDriver \(method) \(url) answered \(response.status): \(String(decoding: response.body.prefix(500), as: UTF8.self))")
        }
        return value
    }
}
