import ControlAPI
import Foundation
import Services
import Testing

/// `GET …/journal` is assembled from each entry's kept JSON (`JournalBody.json`); it must be the very bytes the
/// encoder writes for the whole body, or a client that compares journals byte for byte would see a difference.
struct JournalBodyEncodingTests {
    static let entries: [NetworkExchange] = [
        NetworkExchange(sequence: 1, time: Date(timeIntervalSince1970: 1_793_000_000.25), method: "GET",
                        url: "https://www.cocoawithlove.com/feed.json", headers: ["accept: application/json"], body: nil,
                        route: "feed", status: 200),
        NetworkExchange(sequence: 2, time: Date(timeIntervalSince1970: 1_793_000_001), method: "POST",
                        url: "https://x.example/a?q=1&r=\"2\"", headers: [], body: "{\"a\":[1,2]}\n\u{e9}",
                        nearMisses: [NearMiss(route: "feed", field: "/method", expected: "GET", actual: "POST")]),
        NetworkExchange(sequence: 3, time: Date(timeIntervalSince1970: 1_793_000_002), method: "GET",
                        url: "https://x.example/b", headers: [], body: nil, fault: "timeout", live: false, outcome: "fault"),
    ]

    @Test(arguments: [0, 1, 3])
    func theAssembledBodyIsTheEncodersOwn(count: Int) throws {
        let entries = Array(Self.entries.prefix(count))
        let whole = try JSONEncoder.services.encode(JournalBody(entries: entries, dropped: 7, capacity: 1000))
        let assembled = JournalBody.json(entries: try entries.map { try JSONEncoder.services.encode($0) }, dropped: 7, capacity: 1000)
        #expect(String(decoding: assembled, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
        #expect(try JSONDecoder.services.decode(JournalBody.self, from: assembled).entries == entries)
    }
}
