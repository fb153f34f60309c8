import Foundation
import MeTubeTransfer

/// The device-code endpoint's answer, screened: what the user is shown and how the flow polls.
public struct YouTubeDeviceCode: Sendable, Equatable {
    /// The slowest and fastest polling accepted, whatever the server's `interval` says.
    static let intervalRange = 1...60
    /// The longest a code is waited for, whatever the server's `expires_in` says.
    static let maxLifetimeSeconds = 3_600

    /// The code the flow polls with; never shown.
    public let deviceCode: String
    /// The code the user types on the verification page.
    public let userCode: String
    /// The page where the user types it.
    public let verificationURL: String
    /// How long the code is good for.
    public let expiresIn: Duration
    /// How long to wait between polls at first.
    public let interval: Duration

    /// Screens a device-code answer: the codes must be short printable text, the URL an http(s)
    /// URL; `expires_in` is held to 1 s…1 h and `interval` to 1…60 s (5 s when missing).
    init(json: [String: Any]) throws(YouTubeError) {
        guard let deviceCode = Self.code(json["device_code"], maxBytes: 2048) else { throw .unreadable("the device-code answer has no usable device_code") }
        guard let userCode = Self.code(json["user_code"], maxBytes: 64) else { throw .unreadable("the device-code answer has no usable user_code") }
        guard let url = json["verification_url"] as? String ?? json["verification_uri"] as? String, url.utf8.count <= PeerInput.maxURLBytes,
              let parsed = URL(string: url), parsed.scheme == "https" || parsed.scheme == "http", parsed.host != nil,
              url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7f }) else {
            throw .unreadable("the device-code answer has no usable verification_url")
        }
        let lifetime = (json["expires_in"] as? NSNumber).map { Self.whole($0.doubleValue, in: 1...Self.maxLifetimeSeconds) } ?? 1_800
        let interval = (json["interval"] as? NSNumber).map { Self.whole($0.doubleValue, in: Self.intervalRange) } ?? 5
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURL = url
        self.expiresIn = .seconds(lifetime)
        self.interval = .seconds(interval)
    }

    /// `value` when it is 1…`maxBytes` bytes of printable ASCII.
    static func code(_ value: Any?, maxBytes: Int) -> String? {
        guard let text = value as? String, (1...maxBytes).contains(text.utf8.count),
              text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else { return nil }
        return text
    }

    /// `number` rounded and held to `range` (not a number: the range's start).
    static func whole(_ number: Double, in range: ClosedRange<Int>) -> Int {
        guard number.isFinite else { return range.lowerBound }
        return Int(min(max(number.rounded(), Double(range.lowerBound)), Double(range.upperBound)))
    }
}
