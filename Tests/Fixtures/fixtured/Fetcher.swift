import Foundation
import HTTPTypes
import Services

/// Sends whatever request it is told to and keeps every answer byte for byte: the Model of the import round trips,
/// which replay an imported scenario request by request and compare what comes back with what was recorded.
actor Fetcher: Model {
    static let name = "Fetcher"
    static let actionNames = ["fetch"]

    enum Action: Decodable, Sendable {
        /// Send one request; `body` is base64, as the answer's is.
        case fetch(method: String, url: String, headers: [String: String]?, body: String?)
    }

    struct Answer: Encodable, Sendable {
        var status: Int?
        var headers: [String: String]
        var body: String
        var fault: String?
    }

    struct State: Encodable, Sendable {
        var answers: [Answer] = []
    }

    private let network: any NetworkService
    var state = State()

    init(services: ModelServices) {
        network = services.network
    }

    func perform(_ action: Action) async {
        guard case .fetch(let method, let url, let headers, let body) = action, let target = URL(string: url) else { return }
        var fields = HTTPFields()
        for (name, value) in headers ?? [:] {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let request = NetworkRequest(method: HTTPRequest.Method(method) ?? .get, url: target, headerFields: fields,
                                     body: body.flatMap { Data(base64Encoded: $0) } ?? Data())
        do {
            let response = try await network.send(request)
            var answerHeaders: [String: String] = [:]
            for field in response.head.headerFields { answerHeaders[field.name.canonicalName] = field.value }
            state.answers.append(Answer(status: response.head.status.code, headers: answerHeaders, body: response.body.base64EncodedString()))
        } catch {
            state.answers.append(Answer(status: nil, headers: [:], body: "", fault: "\(error)"))
        }
    }

    func run() async {}
}
