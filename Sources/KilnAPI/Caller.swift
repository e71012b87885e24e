import KilnCore
import KilnStore

/// Who is calling: the tenant its API key names, and the end user the tenant vouches for.
struct Caller: Sendable {
    let tenant: Tenant
    let identity: Identity
}
