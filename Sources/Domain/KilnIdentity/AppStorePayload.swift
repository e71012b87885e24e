import Foundation
import JWTKit

/// A payload the App Store signs, with the moment it was signed: Apple's library checks the certificates as they
/// were at that moment, so a transaction signed before a certificate expired still verifies after.
protocol AppStorePayload: JWTPayload {
    var signedAt: Date? { get }
}
