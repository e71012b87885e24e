/// `/healthz` (`ok`, with the release and commit the node runs) and `/readyz` (`ready`): the `Status` schema.
struct StatusAnswer: Encodable {
    let status: String
    var version: String? = nil
    var commit: String? = nil

    static func alive(_ configuration: APIConfiguration) -> StatusAnswer {
        StatusAnswer(status: "ok", version: configuration.version, commit: configuration.commit)
    }

    static let ready = StatusAnswer(status: "ready")
}
