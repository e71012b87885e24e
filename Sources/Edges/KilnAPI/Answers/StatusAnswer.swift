/// `/healthz` (`ok`) and `/readyz` (`ready`): the `Status` schema.
struct StatusAnswer: Encodable {
    let status: String

    static let alive = StatusAnswer(status: "ok")
    static let ready = StatusAnswer(status: "ready")
}
