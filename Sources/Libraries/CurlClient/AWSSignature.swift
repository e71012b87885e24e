/// Credentials and scope for signing a request with AWS Signature Version 4, done by libcurl itself
/// (`CURLOPT_AWS_SIGV4` and `CURLOPT_USERPWD`).
///
/// libcurl 7.88.1 signs the headers the request names, `host` and `x-amz-date`, but not the body: callers add
/// `x-amz-content-sha256` (the hex SHA-256 of the body, also for an empty one) and any `x-amz-security-token`
/// themselves, and libcurl then signs them too. A signed request never gets the client's bare `Expect:`
/// suppression, since 7.88.1 would sign an `expect` header it never sends.
///
/// `description`, `debugDescription` and `dump` name the scope and access key, never the secret, so a logged or
/// printed request does not leak it.
public struct AWSSignature: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// libcurl's provider pair, `aws:amz` for AWS and S3-compatible servers.
    public var provider: String
    /// The region of the credential scope, such as `us-east-1`. Always given, so libcurl never guesses it from the host.
    public var region: String
    /// The service of the credential scope, such as `s3`. Always given, so libcurl never guesses it from the host.
    public var service: String
    /// The access key ID.
    public var accessKey: String
    /// The secret access key.
    public var secretKey: String

    /// Creates a signature setting; `provider` defaults to `aws:amz`.
    public init(provider: String = "aws:amz", region: String, service: String, accessKey: String, secretKey: String) {
        self.provider = provider
        self.region = region
        self.service = service
        self.accessKey = accessKey
        self.secretKey = secretKey
    }

    /// The `CURLOPT_AWS_SIGV4` value, `provider:region:service`.
    var curlOption: String {
        "\(self.provider):\(self.region):\(self.service)"
    }

    /// The `CURLOPT_USERPWD` value. libcurl splits it at the first colon, so the access key must not hold one.
    var curlCredentials: String {
        "\(self.accessKey):\(self.secretKey)"
    }

    public var description: String {
        "AWSSignature(\(self.curlOption), accessKey: \(self.accessKey))"
    }

    public var debugDescription: String {
        self.description
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["provider": self.provider, "region": self.region, "service": self.service, "accessKey": self.accessKey])
    }
}
