import Foundation
import ScenarioFormat
import Services
import Yams

extension WireMockImporter {
    /// One route to write: the mappings it came from (the first gives its name and request) and its answers.
    struct RouteDraft {
        var mappings: [Mapping]
        /// Each answer with the id of the mapping whose route must have answered first (`after:`), if any.
        var answers: [(response: [(Node, Node)], after: String?)]
        /// `repeat` or `cycle` for a chain of states on one request; nil otherwise.
        var afterLast: String?
        /// Where the route goes: its first mapping's place in WireMock's order.
        var position: Int
        /// A write of a state machine: WireMock matched it in one state only, the route in every state.
        var isWrite = false

        var members: [String] { mappings.map(\.id) }

        /// The route; `routeNames` names the route of each mapping, for `after:`.
        func node(name: String, routeNames: [String: String]) -> Node {
            var pairs: [(Node, Node)] = [(Node("name"), Node.scenarioText(name))]
            if let matcher = mappings[0].matcher, !matcher.isEmpty { pairs.append((Node("request"), .mapping(.init(matcher)))) }
            if answers.count == 1, answers[0].after == nil {
                pairs.append((Node("response"), .mapping(.init(answers[0].response))))
            } else {
                pairs.append((Node("responses"), .sequence(.init(answers.map { answer in
                    let after = answer.after.flatMap { routeNames[$0] }.map { [(Node("after"), Node.scenarioText($0))] } ?? []
                    return .mapping(.init(after + answer.response))
                }))))
                if let afterLast { pairs.append((Node("afterLast"), Node(afterLast))) }
            }
            return .mapping(.init(pairs))
        }
    }

    /// WireMock's initial scenario state.
    static let started = "Started"

    /// The routes, in WireMock's order: a route per stateless mapping, and per state machine the routes its states
    /// come down to; mappings that cannot be translated are listed in `notes` and left out.
    static func routeDrafts(_ mappings: [Mapping], notes: inout [UntranslatedPart]) -> [RouteDraft] {
        var drafts: [RouteDraft] = []
        var scenarios: [String: [(Int, Mapping)]] = [:]
        for (position, mapping) in mappings.enumerated() {
            guard mapping.matcher != nil, let response = mapping.response else {
                // Already listed with its reason; a state machine that loses a mapping is refused below.
                if let scenario = mapping.scenario { scenarios[scenario, default: []].append((position, mapping)) }
                continue
            }
            if let scenario = mapping.scenario, mapping.requiredState != nil || mapping.newState != nil {
                scenarios[scenario, default: []].append((position, mapping))
            } else {
                drafts.append(RouteDraft(mappings: [mapping], answers: [(response, nil)], position: position))
            }
        }
        for scenario in scenarios.keys.sorted() {
            let members = scenarios[scenario]!
            let others = scenarios.filter { $0.key != scenario }.values.flatMap { $0.map(\.1.request) }
            let reason: String? = if members.contains(where: { $0.1.matcher == nil || $0.1.response == nil }) {
                "another mapping of the scenario was left out (listed above), so its states cannot be followed"
            } else if let tangled = members.first(where: { member in others.contains(member.1.request) }) {
                "the request of \(tangled.1.place.source) also takes part in another WireMock scenario, and scenariod follows one state machine per request"
            } else {
                nil
            }
            if let reason {
                refuse(scenario, members.map(\.1), reason: reason, notes: &notes)
                continue
            }
            switch chain(members) ?? causes(members) {
            case .success(let found):
                drafts += found
                for write in found where write.isWrite {
                    let mapping = write.mappings[0]
                    notes.append(UntranslatedPart(source: mapping.place.child("requiredScenarioState").source, reason: "WireMock answered this request only in state '\(mapping.requiredState ?? started)' of scenario '\(scenario)'; the route answers it in every state, and the reads it changes answer after: it."))
                }
            case .failure(let refusal): refuse(scenario, members.map(\.1), reason: refusal.reason, notes: &notes)
            }
        }
        return drafts.sorted { $0.position < $1.position }
    }

    /// Why a state machine could not be translated.
    struct Refusal: Error {
        var reason: String
    }

    private static func refuse(_ scenario: String, _ mappings: [Mapping], reason: String, notes: inout [UntranslatedPart]) {
        for mapping in mappings {
            notes.append(UntranslatedPart(source: mapping.place.source, reason: "left out with the rest of WireMock scenario '\(scenario)': \(reason). Write its routes by hand with responses (answers in turn) or after: (answers that follow a write)."))
        }
    }

    /// Mappings of one request whose states run Started → s1 → s2 …: one route answering them in turn, the last
    /// repeating, or starting over when it returns to Started. Nil when the mappings match different requests.
    private static func chain(_ members: [(Int, Mapping)]) -> Result<[RouteDraft], Refusal>? {
        guard members.allSatisfy({ $0.1.request == members[0].1.request }) else { return nil }
        var byState: [String: (Int, Mapping)] = [:]
        for member in members {
            guard let required = member.1.requiredState else {
                return .failure(Refusal(reason: "\(member.1.place.source) answers in any state and changes it, so the answers do not follow one order"))
            }
            guard byState[required] == nil else {
                return .failure(Refusal(reason: "two mappings of the same request answer in state '\(required)'"))
            }
            byState[required] = member
        }
        var order: [(Int, Mapping)] = []
        var state = started
        while let member = byState[state] {
            order.append(member)
            let next = member.1.newState ?? state
            if next == state || next == started {
                guard order.count == members.count else {
                    return .failure(Refusal(reason: "state '\(state)' \(next == state ? "stays" : "returns to \(started)") before every mapping has answered; some states are never reached in order"))
                }
                let answers = order.map { (response: $0.1.response!, after: String?.none) }
                let afterLast = order.count == 1 ? nil : next == started ? "cycle" : "repeat"
                return .success([RouteDraft(mappings: order.map(\.1), answers: answers, afterLast: afterLast, position: members.map(\.0).min()!)])
            }
            guard !order.contains(where: { $0.1.requiredState == next }) else {
                return .failure(Refusal(reason: "state '\(next)' leads back to an earlier state other than \(started); the answers loop in a way responses cannot say"))
            }
            state = next
        }
        let missing = state == started ? "no mapping answers in the initial state '\(started)'" : "state '\(state)' is set but no mapping answers in it"
        return .failure(Refusal(reason: missing))
    }

    /// A read whose answer writes change: writes (other requests) move the state Started → s1 → …, and the read has
    /// a mapping for every state. The writes become routes of their own; the read answers `after:` each of them.
    private static func causes(_ members: [(Int, Mapping)]) -> Result<[RouteDraft], Refusal> {
        let writes = members.filter { $0.1.newState != nil && $0.1.newState != $0.1.requiredState }
        let reads = members.filter { $0.1.newState == nil || $0.1.newState == $0.1.requiredState }
        guard !writes.isEmpty else {
            return .failure(Refusal(reason: "no mapping changes the state, yet the mappings answer in states other than \(started)"))
        }
        // The writes, in the order of the states they move through. A lone write that matches in any state moves
        // Started to its state and keeps it there, as a route answering after: it does.
        var states = [started]
        var ordered: [(Int, Mapping)] = []
        if writes.count == 1, writes[0].1.requiredState == nil, let next = writes[0].1.newState, next != started {
            ordered = writes
            states.append(next)
        } else {
            while let write = writes.first(where: { $0.1.requiredState == states.last! }) {
                guard let next = write.1.newState, !states.contains(next) else {
                    return .failure(Refusal(reason: "a write returns to an earlier state, and after: cannot undo a write"))
                }
                ordered.append(write)
                states.append(next)
            }
        }
        guard ordered.count == writes.count else {
            let stray = writes.first { write in !ordered.contains { $0.1.id == write.1.id } }!.1
            return .failure(Refusal(reason: "\(stray.place.source) changes the state from '\(stray.requiredState ?? "any state")', which is not one step of a single path from \(started); the states branch"))
        }
        guard Set(writes.map(\.1.request)).count == writes.count,
              !reads.contains(where: { read in writes.contains { $0.1.request == read.1.request } }) else {
            return .failure(Refusal(reason: "one request both changes the state and answers by it, in different mappings"))
        }
        var drafts = ordered.map { write in
            RouteDraft(mappings: [write.1], answers: [(write.1.response!, nil)], position: write.0, isWrite: write.1.requiredState != nil)
        }
        var groups: [[(Int, Mapping)]] = []
        for read in reads {
            if let index = groups.firstIndex(where: { $0[0].1.request == read.1.request }) { groups[index].append(read) } else { groups.append([read]) }
        }
        for group in groups {
            var answers: [(response: [(Node, Node)], after: String?)] = []
            var first: Mapping?
            for (step, state) in states.enumerated() {
                let inState = group.filter { $0.1.requiredState == state }
                guard inState.count == 1 else {
                    return .failure(Refusal(reason: inState.isEmpty
                        ? "\(group[0].1.place.source) has no mapping for state '\(state)', so WireMock answers it from other mappings there"
                        : "two mappings of one request answer in state '\(state)'"))
                }
                first = first ?? inState[0].1
                answers.append((inState[0].1.response!, step == 0 ? nil : ordered[step - 1].1.id))
            }
            guard group.count == states.count, let first else {
                return .failure(Refusal(reason: "\(group[0].1.place.source) answers in a state no write sets"))
            }
            let mappings = [first] + group.map(\.1).filter { $0.id != first.id }
            drafts.append(RouteDraft(mappings: mappings, answers: answers, position: group.map(\.0).min()!))
        }
        return .success(drafts)
    }
}
