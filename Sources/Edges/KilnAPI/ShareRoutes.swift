import HTTPTypes
import Hummingbird
import KilnStore
import NIOCore
import WebReader

/// The web reader: `GET /s/{slug}` serves a published reading path's page and `GET /s/{slug}/{file}` its share card and
/// pictures, to anyone holding the address and without credentials; `DELETE /v1/shares/{slug}` lets its owner revoke
/// it. An expired or revoked page answers 410, an address never published 404, both as small HTML pages that show
/// nothing of anyone's.
struct ShareRoutes<Context: CallerRequestContext> {
    let dependencies: APIDependencies
    let cache: SharePageCache

    /// The page may show its own pictures and inline styles, and nothing else: no script, no frame, no form, no
    /// request to another origin.
    static var contentSecurityPolicy: String {
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// - Parameters:
    ///   - reader: where the pages go, answered without credentials.
    ///   - v1: the authenticated `/v1` group, where owners revoke.
    func register(reader: some RouterMethods<Context>, v1: some RouterMethods<Context>) {
        // HEAD too: link unfurlers and crawlers ask that way before they fetch.
        reader.get("/s/{slug}", use: page)
        reader.head("/s/{slug}", use: page)
        reader.get("/s/{slug}/{file}", use: file)
        reader.head("/s/{slug}/{file}", use: file)
        v1.delete("shares/{slug}", use: revoke)
    }

    @Sendable func page(_ request: Request, context: Context) async throws -> Response {
        let slug = try context.parameters.require("slug")
        if let html = cache.page(slug) { return Self.html(html, status: .ok) }
        switch try await dependencies.shares.page(slug) {
        case .live(let page):
            cache.store(slug, html: page.html, expiresAt: page.expiresAt)
            return Self.html(page.html, status: .ok)
        case .gone: return Self.html(NoticePage.goneHTML, status: .gone)
        case .notFound: return Self.html(NoticePage.notFoundHTML, status: .notFound)
        }
    }

    @Sendable func file(_ request: Request, context: Context) async throws -> Response {
        let lookup = try await dependencies.shares.file(try context.parameters.require("slug"), name: try context.parameters.require("file"))
        switch lookup {
        case .live(let file):
            var headers = Self.commonHeaders
            headers[.contentType] = file.contentType
            // The reader's browser may keep a picture it showed; a shared cache must not serve it after a revocation.
            headers[.cacheControl] = "private, max-age=60"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
        case .gone: return Self.html(NoticePage.goneHTML, status: .gone)
        case .notFound: return Self.html(NoticePage.notFoundHTML, status: .notFound)
        }
    }

    @Sendable func revoke(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        let slug = try context.parameters.require("slug")
        // Before the revocation and after it: a read racing a slow revocation cannot keep the page in memory after it.
        cache.forget(slug)
        guard try await dependencies.shares.revoke(slug, tenant: caller.tenant.id, identity: caller.identity) else {
            throw Problem(.notFound, "share_not_found", "this identity published no page at that address")
        }
        cache.forget(slug)
        return Response(status: .noContent)
    }

    /// Headers of every answer under `/s/`: no sniffing, no referrer, not indexed.
    private static var commonHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        headers[.xRobotsTag] = "noindex"
        return headers
    }

    private static func html(_ html: String, status: HTTPResponse.Status) -> Response {
        var headers = commonHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        // A live page is asked for again each time (the API answers it from memory), so a revocation or the expiry
        // shows at once everywhere; what ended is not kept at all.
        headers[.cacheControl] = status == .ok ? "no-cache" : "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}

extension HTTPField.Name {
    // The literals are valid field names, so the initialisers cannot fail.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xRobotsTag = HTTPField.Name("X-Robots-Tag")!
}
