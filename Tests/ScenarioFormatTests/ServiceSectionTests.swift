import Fakes
import Foundation
import ScenarioFormat
import Services
import Testing

/// A team's service section in scenario files: decoded into the team's type with located errors, merged along
/// `extends`, and in the schema.
@Suite struct ServiceSectionTests {
    protocol Payments: Sendable {}
    struct FakePayments: Payments {}
    enum PaymentsKey: ServiceKey {
        typealias Value = any Payments
        static let name = "payments"
    }
    struct Ledger: Codable, Sendable, Equatable {
        enum Mode: String, Codable, Sendable { case approve, decline }
        var mode: Mode
        var balance: Int
        var declinedCards: [String]
    }
    static let payments = ServiceDefinition(PaymentsKey.self, description: "Card payments",
                                            initialState: Ledger(mode: .approve, balance: 100, declinedCards: [])) { _ in FakePayments() }

    func load(_ files: [String: String]) throws -> ScenarioCatalog {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("service-sections-\(UUID())")
        for (name, text) in files {
            let directory = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try text.write(to: directory.appendingPathComponent("scenario.yaml"), atomically: true, encoding: .utf8)
        }
        return ScenarioCatalog.load(from: [root], models: modelNames, services: [Self.payments])
    }

    func ledger(_ catalog: ScenarioCatalog, _ name: String) -> Ledger? {
        guard case .fake(let state)? = catalog.scenarios[name]?.services["payments"] else { return nil }
        return state as? Ledger
    }

    @Test func aSectionIsMergedOverTheInitialStateAndAChildOverItsParent() throws {
        let catalog = try load([
            "parent": "description: p\nmodel: FeedReader\npayments:\n  balance: 20\n  declinedCards: [\"4000\"]\n",
            "child": "description: c\nextends: parent\npayments:\n  mode: decline\n",
            "none": "description: n\nmodel: FeedReader\n",
        ])
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        #expect(ledger(catalog, "parent") == Ledger(mode: .approve, balance: 20, declinedCards: ["4000"]))
        #expect(ledger(catalog, "child") == Ledger(mode: .decline, balance: 20, declinedCards: ["4000"]))
        #expect(ledger(catalog, "none") == Ledger(mode: .approve, balance: 100, declinedCards: []))
    }

    @Test func aWrongTypeAnUnknownKeyAndLiveWithoutALiveServiceAreRefusedWithTheirPlace() throws {
        let catalog = try load([
            "wrong-type": "description: w\nmodel: FeedReader\npayments:\n  balance: lots\n  colour: red\n",
            "unknown-key": "description: u\nmodel: FeedReader\npayments:\n  balanse: 5\n",
            "live": "description: l\nmodel: FeedReader\npayments: live\n",
            "child-of-bad": "description: c\nextends: unknown-key\n",
        ])
        let wrongType = try #require(catalog.problems["wrong-type"]?.first)
        #expect(wrongType.line == 4 && wrongType.column == 3)
        #expect(wrongType.message == "payments.balance must be an integer, got 'lots'.")
        let alsoUnknown = try #require(catalog.problems["wrong-type"]?.dropFirst().first, "the unknown key beside a wrong type")
        #expect(alsoUnknown.line == 5 && alsoUnknown.message.hasPrefix("unknown key 'colour' in payments."))
        let unknown = try #require(catalog.problems["unknown-key"]?.first)
        #expect(unknown.line == 4 && unknown.column == 3)
        #expect(unknown.message == "unknown key 'balanse' in payments. Did you mean 'balance'? Allowed keys: balance, declinedCards, mode.")
        let live = try #require(catalog.problems["live"]?.first)
        #expect(live.line == 3 && live.message.contains("payments has no live implementation"))
        #expect(catalog.problems["child-of-bad"]?.first?.message.contains("has problems of its own") == true)
    }

    @Test func theSchemaHasTheSectionWithTheStateFields() throws {
        let schema = ScenarioSchema.json(models: modelNames, services: [Self.payments])
        let object = try JSONSerialization.jsonObject(with: Data(schema.utf8)) as? [String: Any]
        let payments = (object?["properties"] as? [String: Any])?["payments"] as? [String: Any]
        let properties = payments?["properties"] as? [String: Any]
        #expect(Set(properties?.keys.map { $0 } ?? []) == ["mode", "balance", "declinedCards"])
        #expect(payments?["additionalProperties"] as? Bool == false)
    }
}
