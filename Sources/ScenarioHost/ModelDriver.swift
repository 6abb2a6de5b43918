import Fakes
import ControlAPI
import Foundation
import ScenarioFormat
import Services

/// One Model instance behind a type-erased face, so the host can drive any registered Model by name and JSON.
struct ModelDriver: Sendable {
    /// The Model's own lifetime work.
    let run: @Sendable () async -> Void
    /// Decodes an action; the returned closure performs it. Decoding first lets errors reach the client at once.
    let prepare: @Sendable (_ name: String, _ arguments: JSONValue) throws(HostError) -> @Sendable () async -> Void
    /// The Model's state as canonical JSON.
    let state: @Sendable () async -> ModelState

    init<M: Model>(_ type: M.Type, description: ModelDescription, actions: DecodedActions<M.Action>, states: StateEncoding<M.State>,
         services: ModelServices) async {
        let model = await M(services: services)
        run = { await model.run() }
        prepare = { name, arguments throws(HostError) in
            guard let declared = description.actions.first(where: { $0.name == name }) else {
                throw HostError(.unknownAction, "\(M.name) has no action '\(name)'.\(Suggestion.didYouMean(name, among: M.actionNames)) Its actions: \(M.actionNames.joined(separator: ", ")).")
            }
            try ActionDecoding.refuseUnknownArguments(arguments, of: declared)
            try ActionDecoding.refuseMistypedArguments(arguments, of: declared)
            let action = try actions.decode(name, arguments: arguments)
            return { await model.perform(action) }
        }
        let encode = states.encoder()
        state = { encode(await model.state) }
    }
}
