/// Where an ``S3ObjectClient`` stores objects, and the credentials it signs with.
///
/// `description`, `debugDescription` and `dump` show the endpoint, bucket, region and access key, never the
/// secret key or the session token.
public struct S3Configuration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The server's base URL without a path, such as `https://s3.eu-central-1.amazonaws.com` or `http://127.0.0.1:9000`.
    public var endpoint: String
    /// The region requests are signed for. Default `us-east-1`, which MinIO and moto also use.
    public var region: String
    /// The bucket every object lives in.
    public var bucket: String
    /// The access key ID.
    public var accessKey: String
    /// The secret access key.
    public var secretKey: String
    /// The session token of temporary credentials, sent as `x-amz-security-token`. Default `nil`, for none.
    public var sessionToken: String?
    /// Path-style addressing, `endpoint/bucket/key`, which MinIO, moto and most S3-compatible servers need;
    /// `false` puts the bucket in the host name, `bucket.endpoint-host/key`, as AWS prefers. Default `true`.
    public var usesPathStyle: Bool

    /// Creates a configuration; the optional arguments have the defaults stated on their properties.
    public init(
        endpoint: String, region: String = "us-east-1", bucket: String, accessKey: String, secretKey: String, sessionToken: String? = nil,
        usesPathStyle: Bool = true
    ) {
        self.endpoint = endpoint
        self.region = region
        self.bucket = bucket
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
        self.usesPathStyle = usesPathStyle
    }

    public var description: String {
        "S3Configuration(endpoint: \(self.endpoint), region: \(self.region), bucket: \(self.bucket), accessKey: \(self.accessKey))"
    }

    public var debugDescription: String {
        self.description
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoint": self.endpoint, "region": self.region, "bucket": self.bucket, "accessKey": self.accessKey,
                "usesPathStyle": self.usesPathStyle,
            ]
        )
    }
}
