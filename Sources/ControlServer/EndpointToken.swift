import Foundation
import HTTPTypes

/// The secret a TCP session endpoint asks of every request, since any local user can reach a loopback port. A client
/// gives it as it can: the `Scenario-Token` header, the password of the proxy's credentials (`HTTP_PROXY=
/// http://scenariod:TOKEN@127.0.0.1:PORT`), the `scenariod-token` cookie, or the `scenariod-token` query parameter,
/// which a browser can be sent to once (the answer redirects to the URL without it and sets the cookie, so the page's own
/// requests carry it).
/// Each is removed before the request reaches the routes.
struct EndpointToken: Sendable {
    static let header = HTTPField.Name("Scenario-Token")!
    static let name = "scenariod-token"

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
        /// Given right; `inQuery` when in the query, so the answer redirects and sets the cookie.
        case right(inQuery: Bool)
    }

    /// Checks `fields` and `target`, taking the token out of both.
    func check(_ fields: inout HTTPFields, _ target: inout String) -> Given {
        var given: [String] = []
        if let header = fields[Self.header] { given.append(header) }
        fields[Self.header] = nil
        if let credentials = fields[.proxyAuthorization] {
            fields[.proxyAuthorization] = nil
            if let password = Self.basicPassword(credentials) { given.append(password) }
        }
        var cookies: [String] = []
        for cookie in fields[values: .cookie] {
            for pair in cookie.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("\(Self.name)=") { given.append(String(trimmed.dropFirst(Self.name.count + 1))) } else { cookies.append(trimmed) }
            }
        }
        fields[values: .cookie] = cookies.isEmpty ? [] : [cookies.joined(separator: "; ")]
        var inQuery = false
        if var components = URLComponents(string: target), let items = components.queryItems,
           let item = items.first(where: { $0.name == Self.name }) {
            given.append(item.value ?? "")
            inQuery = true
            let rest = items.filter { $0.name != Self.name }
            components.queryItems = rest.isEmpty ? nil : rest
            target = components.string ?? target
        }
        guard !given.isEmpty else { return .none }
        return given.contains(where: matches) ? .right(inQuery: inQuery) : .wrong
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
