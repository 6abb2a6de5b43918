import Foundation
import HTTPTypes
import Services

/// The ratings service's endpoints: builds requests and names the bodies, so the Model reads as logic.
struct RatingsAPI {
    struct TokenBody: Decodable { var token: String }
    struct ErrorBody: Decodable { var message: String }
    private struct Credentials: Encodable { var user: String; var password: String }
    private struct RatingBody: Encodable { var driver: Int; var bus: Int }

    let base: URL

    func signIn(user: String, password: String) -> NetworkRequest {
        post("session", body: Credentials(user: user, password: password), token: nil)
    }

    /// The rating summary of `user`, who must be the token's owner: `GET …/rating?user=NAME`.
    func rating(user: String, token: String) -> NetworkRequest {
        let url = base.appendingPathComponent("rating").appending(queryItems: [URLQueryItem(name: "user", value: user)])
        return NetworkRequest(method: .get, url: url,
                              headerFields: [.accept: "application/json", .authorization: "Bearer \(token)"])
    }

    func rate(driver: Int, bus: Int, token: String) -> NetworkRequest {
        post("ratings", body: RatingBody(driver: driver, bus: bus), token: token)
    }

    private func post(_ path: String, body: some Encodable, token: String?) -> NetworkRequest {
        var fields: HTTPFields = [.accept: "application/json", .contentType: "application/json"]
        if let token { fields[.authorization] = "Bearer \(token)" }
        // Encoding these fixed structs of strings and integers cannot fail.
        let data = (try? JSONEncoder.services.encode(body)) ?? Data()
        return NetworkRequest(method: .post, url: base.appendingPathComponent(path), headerFields: fields, body: data)
    }
}
