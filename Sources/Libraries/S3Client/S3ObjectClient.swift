import Crypto
public import CurlClient

/// Stores and fetches whole objects in one bucket of an S3-compatible server (AWS S3, MinIO, R2, moto).
///
/// Requests go through `CurlClient`'s ``HTTPClient`` and are signed by libcurl with AWS Signature Version 4;
/// the client adds what libcurl 7.88.1 leaves out, the payload hash and the session token. Bodies are sent in one
/// piece (no multipart upload), so an object must fit in memory; S3 itself accepts up to 5 GiB that way.
public struct S3ObjectClient: Sendable {
    /// Where objects go, and the credentials.
    public let configuration: S3Configuration
    private let http: HTTPClient
    private let timeout: Duration?

    /// The SHA-256 of an empty payload, which GET, DELETE and empty PUTs declare.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Creates a client over `http`, which the caller owns and shuts down.
    /// - Parameters:
    ///   - configuration: The endpoint, bucket and credentials.
    ///   - http: The libcurl client that sends the requests.
    ///   - timeout: Limit for each whole transfer; `nil` uses the HTTP client's own total timeout.
    public init(configuration: S3Configuration, http: HTTPClient, timeout: Duration? = nil) {
        self.configuration = configuration
        self.http = http
        self.timeout = timeout
    }

    /// Stores `bytes` under `key`, replacing any object there.
    /// - Parameter payloadSHA256: the bytes' SHA-256 in lowercase hex, when the caller has it (hashed off its event
    ///   loop); the client hashes them itself otherwise.
    /// - Throws: ``S3Error`` if S3 refuses, `HTTPClientError` if no answer arrived.
    public func put(key: String, bytes: [UInt8], contentType: String = "application/octet-stream", payloadSHA256: String? = nil) async throws {
        let response = try await self.send(
            "PUT", key: key, body: bytes, payloadSHA256: payloadSHA256, contentType: contentType, operation: "PutObject")
        try Self.requireSuccess(response, operation: "PutObject")
    }

    /// The bytes stored under `key`, or `nil` if there is no such object.
    /// - Throws: ``S3Error`` for any other refusal, such as a missing bucket or a bad signature;
    ///   `HTTPClientError` if no answer arrived.
    public func get(key: String) async throws -> [UInt8]? {
        let response = try await self.send("GET", key: key, body: nil, contentType: nil, operation: "GetObject")
        if response.status == 404 {
            let document = S3ErrorDocument(parsing: response.body)
            // A missing bucket is a broken configuration, not a missing object.
            if document.code == nil || document.code == "NoSuchKey" { return nil }
        }
        try Self.requireSuccess(response, operation: "GetObject")
        return response.body
    }

    /// Deletes the object under `key`; deleting a missing object succeeds, as S3 answers it.
    /// - Throws: ``S3Error`` if S3 refuses, `HTTPClientError` if no answer arrived.
    public func delete(key: String) async throws {
        let response = try await self.send("DELETE", key: key, body: nil, contentType: nil, operation: "DeleteObject")
        try Self.requireSuccess(response, operation: "DeleteObject")
    }

    /// The keys of every object whose key starts with `prefix`, in S3's order (by UTF-8 bytes), following
    /// continuation tokens page by page (up to 1,000 keys each).
    /// - Throws: ``S3Error`` if S3 refuses, `HTTPClientError` if no answer arrived.
    public func list(prefix: String) async throws -> [String] {
        var keys: [String] = []
        var token: String?
        repeat {
            // Parameters sorted by name and encoded as SigV4 canonicalises them: libcurl 7.88.1 signs the query as sent.
            var parameters: [(String, String)] = [("list-type", "2"), ("prefix", prefix)]
            if let token { parameters.insert(("continuation-token", token), at: 0) }
            let query = parameters.map { "\($0.0)=\(ObjectKey.encodedQueryValue($0.1))" }.joined(separator: "&")
            let response = try await self.send("GET", key: nil, query: query, body: nil, contentType: nil, operation: "ListObjectsV2")
            try Self.requireSuccess(response, operation: "ListObjectsV2")
            let page = S3ListDocument(parsing: response.body)
            keys += page.keys
            token = page.nextContinuationToken
        } while token != nil
        return keys
    }

    /// Creates the configured bucket in the configured region; a bucket this account already owns counts as created.
    /// For first setup and tests: production buckets are usually made by infrastructure tooling.
    /// - Throws: ``S3Error`` if S3 refuses (for example another account owns the name), `HTTPClientError` if no answer arrived.
    public func createBucket() async throws {
        // us-east-1 is S3's default location and refuses to be named as a constraint.
        let location = "<LocationConstraint>\(self.configuration.region)</LocationConstraint>"
        let body =
            self.configuration.region == "us-east-1"
            ? []
            : Array("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\(location)</CreateBucketConfiguration>".utf8)
        let response = try await self.send("PUT", key: nil, body: body, contentType: "application/xml", operation: "CreateBucket")
        if response.status == 409, S3ErrorDocument(parsing: response.body).code == "BucketAlreadyOwnedByYou" { return }
        try Self.requireSuccess(response, operation: "CreateBucket")
    }

    // MARK: Requests

    /// The URL of `key` in the bucket, or of the bucket itself when `key` is `nil`.
    func url(key: String?) -> String {
        let endpoint = self.configuration.endpoint.hasSuffix("/") ? String(self.configuration.endpoint.dropLast()) : self.configuration.endpoint
        let path = key.map { "/" + ObjectKey.encodedPath($0) } ?? ""
        if self.configuration.usesPathStyle {
            return "\(endpoint)/\(ObjectKey.encodedPath(self.configuration.bucket))\(path)"
        }
        // Virtual-hosted style: the bucket becomes the first label of the host.
        guard let schemeEnd = endpoint.firstRange(of: "://") else { return "\(endpoint)\(path)" }
        return "\(endpoint[..<schemeEnd.upperBound])\(self.configuration.bucket).\(endpoint[schemeEnd.upperBound...])\(path.isEmpty ? "/" : path)"
    }

    private func send(
        _ method: String, key: String?, query: String? = nil, body: [UInt8]?, payloadSHA256: String? = nil, contentType: String?,
        operation: String
    ) async throws -> HTTPResponse {
        if let key {
            guard !key.isEmpty, key.utf8.count <= 1024 else {
                throw S3Error(status: nil, code: nil, message: "an object key must be 1 to 1024 bytes of UTF-8", operation: operation)
            }
        }
        // 7.88.1 signs whatever x-amz-content-sha256 says but never computes it, and S3 checks the body against it.
        var headers: HTTPHeaders = ["x-amz-content-sha256": payloadSHA256 ?? body.map(Self.sha256Hex) ?? Self.emptyPayloadHash]
        if let contentType {
            headers.add(name: "Content-Type", value: contentType)
        }
        if let token = self.configuration.sessionToken {
            headers.add(name: "x-amz-security-token", value: token)
        }
        let signature = AWSSignature(
            region: self.configuration.region, service: "s3", accessKey: self.configuration.accessKey, secretKey: self.configuration.secretKey
        )
        let url = self.url(key: key) + (query.map { "?\($0)" } ?? "")
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body, awsSigV4: signature)
        return try await self.http.execute(request, timeout: self.timeout)
    }

    private static func requireSuccess(_ response: HTTPResponse, operation: String) throws {
        guard !(200..<300).contains(response.status) else { return }
        let document = S3ErrorDocument(parsing: response.body)
        throw S3Error(
            status: response.status, code: document.code, message: document.message ?? "HTTP status \(response.status)", operation: operation
        )
    }

    static func sha256Hex(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
