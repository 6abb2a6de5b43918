/// The parts of a JSON Feed 1.1 document (https://www.jsonfeed.org/version/1.1/) the reader uses.
struct JSONFeed: Decodable {
    struct Item: Decodable {
        var id: String
        var url: String?
        var title: String?
        var summary: String?
        var datePublished: String?

        enum CodingKeys: String, CodingKey {
            case id, url, title, summary
            case datePublished = "date_published"
        }
    }

    var version: String
    var title: String
    var items: [Item]
}
