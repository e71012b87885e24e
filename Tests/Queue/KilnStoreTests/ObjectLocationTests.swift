import Foundation
import KilnStore
import S3Client
import Testing

/// `KILN_OBJECT_STORE` and the credentials' variables, read without any server.
@Suite struct ObjectLocationTests {
    static let credentials = ["KILN_S3_ACCESS_KEY_ID": "AKIAEXAMPLE", "KILN_S3_SECRET_ACCESS_KEY": "s3cr3t-value"]

    @Test func emptyKeepsTheLocalDirectory() throws {
        for store in ["", "  "] {
            guard case .directory(let root) = try ObjectLocation(store: store, root: "/var/kiln/objects", environment: [:]) else {
                Issue.record("\"\(store)\" is not the local directory")
                continue
            }
            #expect(root.path == "/var/kiln/objects")
        }
    }

    @Test func fullS3URL() throws {
        var environment = Self.credentials
        environment["KILN_S3_SESSION_TOKEN"] = "t0ken"
        let location = try ObjectLocation(
            store: "s3://kiln-artifacts?endpoint=http://127.0.0.1:9000/&region=eu-central-1&path_style=1", root: "/unused",
            environment: environment)
        guard case .s3(let configuration) = location else { throw TestFailure("not S3") }
        #expect(configuration.bucket == "kiln-artifacts")
        #expect(configuration.endpoint == "http://127.0.0.1:9000")
        #expect(configuration.region == "eu-central-1")
        #expect(configuration.usesPathStyle)
        #expect(configuration.accessKey == "AKIAEXAMPLE")
        #expect(configuration.secretKey == "s3cr3t-value")
        #expect(configuration.sessionToken == "t0ken")
    }

    @Test func awsDefaults() throws {
        guard case .s3(let configuration) = try ObjectLocation(store: "s3://kiln.objects", root: "/unused", environment: Self.credentials) else {
            throw TestFailure("not S3")
        }
        #expect(configuration.endpoint == "https://s3.us-east-1.amazonaws.com")
        #expect(configuration.region == "us-east-1")
        #expect(!configuration.usesPathStyle)
        #expect(configuration.sessionToken == nil)
        guard
            case .s3(let regional) = try ObjectLocation(
                store: "s3://kiln.objects?region=eu-west-3&path_style=true", root: "", environment: Self.credentials)
        else { throw TestFailure("not S3") }
        #expect(regional.endpoint == "https://s3.eu-west-3.amazonaws.com")
        #expect(regional.usesPathStyle)
    }

    @Test(
        arguments: [
            ("/var/kiln/objects", "s3://"),
            ("file:///var/kiln", "s3://"),
            ("s3://", "bucket name"),
            ("s3://Kiln_Bucket", "bucket name"),
            ("s3://ab", "bucket name"),
            ("s3://kiln/prefix", "without a port, path or fragment"),
            ("s3://kiln:9000", "without a port, path or fragment"),
            ("s3://kiln?endpoint=127.0.0.1:9000", "endpoint"),
            ("s3://kiln?endpoint=ftp://127.0.0.1", "endpoint"),
            ("s3://kiln?endpoint=http://127.0.0.1:9000/kiln", "endpoint"),
            ("s3://kiln?region=EU%20West", "region"),
            ("s3://kiln?path_style=yes", "path_style"),
            ("s3://kiln?pathstyle=1", "unknown parameter \"pathstyle\""),
            ("s3://kiln?region=us-east-1&region=eu-west-1", "twice"),
        ])
    func badURLs(store: String, complaint: String) throws {
        let error = try #require(throws: StoreError.self) { try ObjectLocation(store: store, root: "/unused", environment: Self.credentials) }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains(complaint), "\(error.message)")
    }

    @Test func credentialsComeFromTheEnvironmentOnly() throws {
        for environment in [
            [:], ["KILN_S3_ACCESS_KEY_ID": "AKIAEXAMPLE"], ["KILN_S3_SECRET_ACCESS_KEY": "x"],
            ["KILN_S3_ACCESS_KEY_ID": "", "KILN_S3_SECRET_ACCESS_KEY": "x"],
        ] {
            let error = try #require(throws: StoreError.self) { try ObjectLocation(store: "s3://kiln", root: "", environment: environment) }
            #expect(error.message.contains("KILN_S3_ACCESS_KEY_ID and KILN_S3_SECRET_ACCESS_KEY"))
        }
        let inURL = try #require(throws: StoreError.self) {
            try ObjectLocation(store: "s3://AKIAEXAMPLE:s3cr3t-value@kiln", root: "", environment: Self.credentials)
        }
        #expect(inURL.message.contains("must not hold credentials"))
        #expect(!inURL.message.contains("s3cr3t-value"))
    }

    @Test func descriptionsHideTheSecret() throws {
        let location = try ObjectLocation(store: "s3://kiln?endpoint=http://127.0.0.1:9000", root: "", environment: Self.credentials)
        var dumped = ""
        dump(location, to: &dumped)
        for text in [String(describing: location), String(reflecting: location), dumped] {
            #expect(!text.contains("s3cr3t-value"))
        }
    }
}

private struct TestFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
