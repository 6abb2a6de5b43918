import Foundation
import Fakes
import HTTPTypes
import Services

/// A child scenario's change to a route of the scenario it extends (`- extends: feed` with, say, `response:
/// {delay: 10s}`): the parent's route with only what the child wrote changed, in the parent's place among the routes.
///
/// Mappings (query, headers, bodyFields, response headers) merge by name; anything else written replaces the
/// parent's. `response` changes every answer of the parent's route; `responses` replaces the list.
struct RoutePatch {
    /// The parent's route this changes; the changed route keeps the name.
    var name: String
    /// Where `extends` was written, for "no such route".
    var line: Int?
    var column: Int?
    /// The request keys written, parsed as a whole matcher; only `requestKeys` are taken from it.
    var request = RequestMatcher()
    var requestKeys: Set<String> = []
    /// The response keys written, parsed as a whole answer; only `responseKeys` are taken from it.
    var response: RouteOutcome?
    var responseKeys: Set<String> = []
    var responses: [RouteOutcome]?
    var afterLast: Route.SequenceEnd?
    var live: Bool?

    /// `route` with this patch's changes.
    func apply(to route: Route) -> Route {
        var matcher = route.matcher
        for key in requestKeys {
            switch key {
            case "method": matcher.method = request.method
            case "url", "urlPattern": matcher.url = request.url
            case "query": matcher.query.merge(request.query) { _, child in child }
            case "headers": matcher.headers.merge(request.headers) { _, child in child }
            case "body": matcher.body = request.body
            case "bodyText": matcher.bodyText = request.bodyText
            case "bodyFields": matcher.bodyFields.merge(request.bodyFields) { _, child in child }
            default: break
            }
        }
        if live == true || (route.isLive && live == nil && response == nil && responses == nil) {
            return Route.live(name: route.name, matcher: matcher)
        }
        var outcomes = responses ?? route.outcomes
        if let response {
            // A live route made to answer starts from the default answer, 200 with no body.
            if outcomes.isEmpty { outcomes = [RouteOutcome(.response(NetworkResponse(status: 200)))] }
            outcomes = outcomes.map { changing($0, by: response) }
        }
        return Route(name: route.name, matcher: matcher, outcomes: outcomes, afterLast: afterLast ?? route.afterLast)
    }

    /// `outcome` with the written response keys of `patch` taken over. A fault stays a fault unless a status or a
    /// body is written; written headers join a response's.
    private func changing(_ outcome: RouteOutcome, by patch: RouteOutcome) -> RouteOutcome {
        var changed = outcome
        if responseKeys.contains("delay") { changed.delay = patch.delay }
        switch (patch.result, outcome.result) {
        case (.fault, _):
            // A fault is the whole answer: a parent's stream or conversation goes with the response it replaces.
            if responseKeys.contains("fault") {
                changed.result = patch.result
                changed.stream = nil
                changed.webSocket = nil
                changed.answerer = nil
            }
        case (.response(let given), let parent):
            var response: NetworkResponse
            if case .response(let parent) = parent {
                response = parent
            } else if !responseKeys.isDisjoint(with: ["status", "body", "bodyFile", "stream", "webSocket", "graphql", "grpc"]) {
                response = NetworkResponse(status: 200)
            } else {
                break
            }
            if responseKeys.contains("status") { response.head.status = given.head.status }
            for field in given.head.headerFields { response.head.headerFields[field.name] = field.value }
            if !responseKeys.isDisjoint(with: ["body", "bodyFile"]) {
                response.body = given.body
                changed.stream = nil
            }
            if responseKeys.contains("stream") {
                response.body = Data()
                changed.stream = patch.stream
            }
            if responseKeys.contains("webSocket") { changed.webSocket = patch.webSocket }
            // A GraphQL endpoint or a gRPC method's answer is worked out per request: the patch's replaces the parent's.
            if !responseKeys.isDisjoint(with: ["graphql", "grpc"]) {
                changed.answerer = patch.answerer
            } else if !responseKeys.isDisjoint(with: ["status", "body", "bodyFile", "stream", "webSocket"]) {
                // A plain answer written over one: the patch's status or body is what is sent.
                changed.answerer = nil
            }
            changed.result = .response(response)
            changed.template = changingTemplate(outcome.template, by: patch.template, headers: given.head.headerFields)
        }
        return changed
    }

    /// The parent's template with the parts the patch wrote replaced by the patch's own: `template: true` applies to
    /// what the patch writes, `template: false` sends everything as written.
    private func changingTemplate(_ parent: ResponseTemplate?, by patch: ResponseTemplate?, headers: HTTPFields) -> ResponseTemplate? {
        if responseKeys.contains("template"), patch == nil { return nil }
        var template = parent ?? ResponseTemplate(body: nil, bodyIsJSON: false, headers: [:])
        if !responseKeys.isDisjoint(with: ["body", "bodyFile"]) {
            template.body = patch?.body
            template.bodyIsJSON = patch?.bodyIsJSON ?? template.bodyIsJSON
        }
        if responseKeys.contains("headers") {
            for field in headers { template.headers[field.name] = patch?.headers[field.name] }
        }
        return template.isEmpty ? nil : template
    }
}
