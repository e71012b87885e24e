public import Foundation
public import S3Client

/// Where artifacts and uploads are kept: a local directory (the default) or a bucket of an S3-compatible server.
///
/// Read once at start from `KILN_OBJECT_STORE` (or `--object-store`) and `KILN_OBJECT_ROOT` (or `--object-root`);
/// S3's credentials come only from the environment, never from the URL, so they stay out of process listings.
public enum ObjectLocation: Sendable {
    /// Files under this directory, written by ``ObjectStore``.
    case directory(URL)
    /// Objects in this bucket, written by ``S3ObjectStore``.
    case s3(S3Configuration)

    /// The variable the S3 access key ID is read from.
    public static let accessKeyVariable = "KILN_S3_ACCESS_KEY_ID"
    /// The variable the S3 secret access key is read from.
    public static let secretKeyVariable = "KILN_S3_SECRET_ACCESS_KEY"
    /// The variable the session token of temporary S3 credentials is read from; optional.
    public static let sessionTokenVariable = "KILN_S3_SESSION_TOKEN"

    /// Reads the configuration.
    ///
    /// - Parameters:
    ///   - store: Empty for the local directory, or `s3://BUCKET` with the optional query parameters `endpoint`
    ///     (`http(s)://host[:port]`, default `https://s3.<region>.amazonaws.com`), `region` (default `us-east-1`) and
    ///     `path_style` (`1`/`0`, `true`/`false`; default `1` with an endpoint, which MinIO and moto need, and `0`
    ///     for AWS's own endpoint, where new buckets only take virtual-hosted requests).
    ///   - root: The local directory, used when `store` is empty.
    ///   - environment: Where ``accessKeyVariable``, ``secretKeyVariable`` and the optional ``sessionTokenVariable``
    ///     are read.
    /// - Throws: ``StoreError/Code/invalidArgument`` saying what is wrong; the message never holds a secret.
    public init(store: String, root: String, environment: [String: String]) throws {
        let store = store.trimmingCharacters(in: .whitespaces)
        guard !store.isEmpty else {
            self = .directory(URL(fileURLWithPath: root, isDirectory: true))
            return
        }
        func invalid(_ reason: String) -> StoreError {
            StoreError(.invalidArgument, "the object store \(reason); expected s3://BUCKET?endpoint=http(s)://host:port&region=REGION&path_style=1")
        }
        guard let url = URLComponents(string: store), url.scheme?.lowercased() == "s3" else {
            throw invalid("must be an s3:// URL (leave it empty to keep objects in the local directory)")
        }
        // Not echoed: the user part might hold a secret.
        guard url.user == nil, url.password == nil else {
            throw invalid("URL must not hold credentials: set \(Self.accessKeyVariable) and \(Self.secretKeyVariable) instead")
        }
        guard let bucket = url.host, Self.isValidBucket(bucket) else {
            throw invalid("needs a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens after s3://")
        }
        guard url.port == nil, url.path.isEmpty || url.path == "/", url.fragment == nil else {
            throw invalid("URL must be s3://BUCKET with options as query parameters, without a port, path or fragment")
        }
        var parameters: [String: String] = [:]
        for item in url.queryItems ?? [] {
            guard ["endpoint", "region", "path_style"].contains(item.name) else {
                throw invalid("has an unknown parameter \"\(item.name)\" (known: endpoint, region, path_style)")
            }
            guard parameters[item.name] == nil else { throw invalid("names \"\(item.name)\" twice") }
            parameters[item.name] = item.value ?? ""
        }
        let region = parameters["region"] ?? "us-east-1"
        guard !region.isEmpty, region.utf8.allSatisfy({ Self.isLowercaseAlphanumeric($0) || $0 == UInt8(ascii: "-") }) else {
            throw invalid("has a region \"\(region)\" that is not lowercase letters, digits and hyphens")
        }
        let endpoint = parameters["endpoint"] ?? "https://s3.\(region).amazonaws.com"
        guard let parsed = URLComponents(string: endpoint), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
            let host = parsed.host, !host.isEmpty, parsed.user == nil, parsed.path.isEmpty || parsed.path == "/", parsed.query == nil
        else {
            throw invalid("has an endpoint that is not http(s)://host[:port] without a path or query")
        }
        let usesPathStyle: Bool
        switch parameters["path_style"] {
        case nil: usesPathStyle = parameters["endpoint"] != nil
        case "1", "true": usesPathStyle = true
        case "0", "false": usesPathStyle = false
        case let other?: throw invalid("has path_style \"\(other)\"; use 1 or 0")
        }
        guard let accessKey = environment[Self.accessKeyVariable], !accessKey.isEmpty,
            let secretKey = environment[Self.secretKeyVariable], !secretKey.isEmpty
        else {
            throw StoreError(
                .invalidArgument, "the S3 object store needs \(Self.accessKeyVariable) and \(Self.secretKeyVariable) in the environment")
        }
        let token = environment[Self.sessionTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        self = .s3(
            S3Configuration(
                endpoint: endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint, region: region, bucket: bucket,
                accessKey: accessKey, secretKey: secretKey, sessionToken: token, usesPathStyle: usesPathStyle))
    }

    /// S3's rule for new buckets: 3–63 of `a-z 0-9 . -`, starting and ending with a letter or digit.
    private static func isValidBucket(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count), let first = bytes.first, let last = bytes.last else { return false }
        return isLowercaseAlphanumeric(first) && isLowercaseAlphanumeric(last)
            && bytes.allSatisfy { isLowercaseAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    private static func isLowercaseAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
