import Foundation
import HTTPTypes

/// The secret a TCP session endpoint asks of every request, since any local user can reach a loopback port. A client
/// gives it as the `Scenario-Token` header or as the password of the proxy's credentials (`http_proxy=
/// http://scenariod:TOKEN@127.0.0.1:PORT`, or a browser's proxy settings); both are removed before the request reaches
/// the routes. Never as a cookie: a browser sends a cookie of 127.0.0.1 to every server on 127.0.0.1, whatever its
/// port, so another local server opened in the same browser would be handed the token.
struct EndpointToken: Sendable {
    static let header = HTTPField.Name("Scenario-Token")!

    let value: String

    /// A new token: 128 random bits, as hex.
    static func make() -> EndpointToken {
        var generator = SystemRandomNumberGenerator()
        let bits = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }
        return EndpointToken(value: bits.map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined())
    }

    /// How a request gave the token.
    enum Given {
        case none
        case wrong
        case right
    }

    /// Checks `fields`, taking the token out of them.
    func check(_ fields: inout HTTPFields) -> Given {
        var given: [String] = []
        if let header = fields[Self.header] { given.append(header) }
        fields[Self.header] = nil
        if let credentials = fields[.proxyAuthorization] {
            fields[.proxyAuthorization] = nil
            if let password = Self.basicPassword(credentials) { given.append(password) }
        }
        guard !given.isEmpty else { return .none }
        return given.contains(where: matches) ? .right : .wrong
    }

    /// Compared in time that does not depend on where the strings first differ.
    private func matches(_ candidate: String) -> Bool {
        let expected = Array(value.utf8), actual = Array(candidate.utf8)
        var difference = UInt8(expected.count == actual.count ? 0 : 1)
        for index in expected.indices { difference |= expected[index] ^ (index < actual.count ? actual[index] : 0) }
        return difference == 0
    }

    /// The password of `Basic` credentials.
    private static func basicPassword(_ credentials: String) -> String? {
        let parts = credentials.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", let decoded = Data(base64Encoded: String(parts[1])),
              let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        return String(text[text.index(after: colon)...])
    }
}
