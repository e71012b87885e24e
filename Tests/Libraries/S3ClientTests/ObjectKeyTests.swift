import CurlClient
import Testing

@testable import S3Client

@Suite("Object keys, error bodies and URLs, without a server")
struct ObjectKeyTests {
    @Test(
        "keys are encoded per segment with only unreserved characters bare",
        arguments: [
            ("plain/key-1_2.3~x", "plain/key-1_2.3~x"),
            ("with space", "with%20space"),
            ("ü/ß", "%C3%BC/%C3%9F"),
            ("a+b=c&d", "a%2Bb%3Dc%26d"),
            ("100%", "100%25"),
            ("/leading//double/", "/leading//double/"),
            ("🎞", "%F0%9F%8E%9E"),
        ]
    )
    func encoding(key: String, expected: String) {
        #expect(ObjectKey.encodedPath(key) == expected)
    }

    @Test("S3's error document yields its code and unescaped message")
    func errorDocument() {
        let body = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>SignatureDoesNotMatch</Code><Message>a &lt;b&gt; &amp;amp; &quot;c&quot;</Message><RequestId>1</RequestId></Error>
            """.utf8
        )
        #expect(S3ErrorDocument(parsing: body) == S3ErrorDocument(code: "SignatureDoesNotMatch", message: "a <b> &amp; \"c\""))
        #expect(S3ErrorDocument(parsing: Array("<html>Bad Gateway</html>".utf8)) == S3ErrorDocument(code: nil, message: nil))
        #expect(S3ErrorDocument(parsing: []) == S3ErrorDocument(code: nil, message: nil))
    }

    @Test(
        "S3's 500, 502, 503 and 504 mean it is unavailable; any other answer, or a request not sent, is a refusal",
        arguments: [(500, true), (502, true), (503, true), (504, true), (400, false), (403, false), (404, false), (501, false)]
    )
    func unavailability(status: Int, unavailable: Bool) {
        #expect(S3Error(status: status, code: nil, message: "", operation: "GetObject").isUnavailable == unavailable)
        #expect(!S3Error(status: nil, code: nil, message: "", operation: "GetObject").isUnavailable)
    }

    @Test("the payload hash is SHA-256 in lowercase hex")
    func payloadHash() {
        #expect(S3ObjectClient.sha256Hex([]) == S3ObjectClient.emptyPayloadHash)
        #expect(S3ObjectClient.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("path-style and virtual-hosted URLs")
    func urls() throws {
        let http = try HTTPClient()
        defer { http.shutdown() }
        var configuration = S3Configuration(endpoint: "http://127.0.0.1:9000/", bucket: "media", accessKey: "a", secretKey: "s")
        #expect(S3ObjectClient(configuration: configuration, http: http).url(key: "a b/c") == "http://127.0.0.1:9000/media/a%20b/c")
        #expect(S3ObjectClient(configuration: configuration, http: http).url(key: nil) == "http://127.0.0.1:9000/media")
        configuration.endpoint = "https://s3.eu-central-1.amazonaws.com"
        configuration.usesPathStyle = false
        #expect(S3ObjectClient(configuration: configuration, http: http).url(key: "x") == "https://media.s3.eu-central-1.amazonaws.com/x")
        #expect(S3ObjectClient(configuration: configuration, http: http).url(key: nil) == "https://media.s3.eu-central-1.amazonaws.com/")
    }
}
