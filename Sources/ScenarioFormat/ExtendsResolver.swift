import Fakes
import Foundation
import Services

/// Resolves `extends:` chains into complete scenarios: a child's keys win, seeds merge by key, and a child's
/// routes come before its parent's (a child route replaces a parent route of the same name).
struct ExtendsResolver {
    /// Problems as an Error, so they travel in a `Result`.
    struct Problems: Error { var list: [ScenarioProblem] }

    let files: [String: ScenarioFile]
    let invalid: Set<String>
    let models: [String]
    let services: [ServiceDefinition]
    /// The directories the files were read from, and where else a missing parent may be, for its problem's hint.
    var roots: [URL] = [], elsewhere: [URL] = []
    private var resolved: [String: Result<Scenario, Problems>] = [:]

    init(files: [String: ScenarioFile], invalid: Set<String>, models: [String], services: [ServiceDefinition]) {
        self.files = files
        self.invalid = invalid
        self.models = models
        self.services = services
    }

    mutating func resolve(_ name: String) -> Result<Scenario, Problems> {
        if let done = resolved[name] { return done }
        let result = build(name)
        resolved[name] = result
        return result
    }

    private mutating func build(_ name: String) -> Result<Scenario, Problems> {
        guard let file = files[name] else { preconditionFailure("resolve is only called for parsed files") }
        guard let extends = file.extends else {
            return finish(file, parent: nil)
        }
        let parentName = extends.value
        func problem(_ message: String) -> Result<Scenario, Problems> {
            .failure(Problems(list: [ScenarioProblem(file: file.path, line: extends.line, column: extends.column, message: message)]))
        }
        if let cycle = cycle(from: name) {
            return problem("extends '\(parentName)' makes a cycle: \(cycle.joined(separator: " → ")). Remove one 'extends'.")
        }
        if invalid.contains(parentName) {
            return problem("extends '\(parentName)', which has problems of its own; fix that scenario first.")
        }
        guard files[parentName] != nil else {
            return problem(MissingParent.message(parent: parentName, file: file.directory, roots: roots, elsewhere: elsewhere,
                                                 known: files.keys.sorted()))
        }
        switch resolve(parentName) {
        case .success(let parent): return finish(file, parent: parent)
        case .failure:
            return problem("extends '\(parentName)', which has problems of its own; fix that scenario first.")
        }
    }

    /// The `extends` chain from `name` back to itself when `name` is on a cycle (`a → b → a`), else nil.
    private func cycle(from name: String) -> [String]? {
        var path = [name]
        var current = name
        while let parent = files[current]?.extends?.value {
            path.append(parent)
            if parent == name { return path }
            if path.dropLast().contains(parent) { return nil } // a cycle further up; reported for its own members
            current = parent
        }
        return nil
    }

    /// `parent` extended by `file`, a file that is not in any catalog (a session's overrides).
    static func extend(_ parent: Scenario, with file: ScenarioFile, models: [String], services: [ServiceDefinition]) -> Result<Scenario, Problems> {
        ExtendsResolver(files: [file.name: file], invalid: [], models: models, services: services).finish(file, parent: parent)
    }

    /// The problem with the Model a file names, when it names one this daemon does not host.
    static func modelProblems(of file: ScenarioFile, models: [String]) -> [ScenarioProblem] {
        guard let model = file.model, !models.contains(model.value) else { return [] }
        return [ScenarioProblem(
            file: file.path, line: model.line, column: model.column,
            message: "unknown model '\(model.value)'.\(Suggestion.didYouMean(model.value, among: models)) Known models: \(models.joined(separator: ", ")).")]
    }

    /// The problems a file has with the scenario it extends: another Model, or a change to a route the parent does
    /// not have. Safe on a file that had problems of its own: what could not be read is not checked, so nothing
    /// is reported that fixing those would not leave.
    static func parentProblems(of file: ScenarioFile, parent: Scenario) -> [ScenarioProblem] {
        modelMismatch(of: file, parent: parent) + routes(of: file, parent: parent).problems
    }

    /// The problem with a file that names another Model than the scenario it extends.
    private static func modelMismatch(of file: ScenarioFile, parent: Scenario?) -> [ScenarioProblem] {
        guard let model = file.model, let parent, parent.model != model.value else { return [] }
        return [ScenarioProblem(
            file: file.path, line: model.line, column: model.column,
            message: "model '\(model.value)' differs from '\(parent.model)' of the extended scenario '\(parent.name)'; a scenario extends one of the same Model.")]
    }

    /// Every problem the resolved scenario has, gathered in one pass rather than stopping at the first.
    private func finish(_ file: ScenarioFile, parent: Scenario?) -> Result<Scenario, Problems> {
        guard let model = file.model?.value ?? parent?.model else {
            return .failure(Problems(list: [ScenarioProblem(
                file: file.path, line: 1, column: 1,
                message: "no 'model'; name the Model this scenario runs (\(models.joined(separator: ", "))) or extend a scenario that does.")]))
        }
        var problems = Self.modelProblems(of: file, models: models) + Self.modelMismatch(of: file, parent: parent)
        let (routes, patchProblems) = Self.routes(of: file, parent: parent)
        problems += patchProblems
        var network = parent?.network ?? .default
        if let mode = file.networkMode?.value { network.mode = mode }
        if let timeout = file.connectTimeout { network.connectTimeout = timeout }
        if let timeout = file.readTimeout { network.readTimeout = timeout }
        if let redirects = file.redirects { network.redirects = redirects }
        network.forward.merge(file.forward) { _, child in child }
        network.redact += file.redact.filter { !network.redact.contains($0) }
        if network.mode == .record, !routes.isEmpty {
            problems.append(ScenarioProblem(
                file: file.path, line: file.networkMode?.line, column: file.networkMode?.column,
                message: "network mode 'record' sends every request to the live network, but this scenario has routes (\(routes.map(\.name).joined(separator: ", "))); use mode 'live' to answer some requests from routes."))
        }
        let names = Set(routes.map(\.name))
        problems += file.causalLinks.filter { !names.contains($0.after) }.map { link in
            ScenarioProblem(file: file.path, line: link.line, column: link.column,
                            message: "route '\(link.route)' answers after route '\(link.after)', but the scenario has no route of that name.\(Suggestion.didYouMean(link.after, among: names.sorted()))")
        }
        if network.mode == .fake, !routes.contains(where: \.isLive), !network.forward.isEmpty, let place = file.forwardPlace {
            problems.append(ScenarioProblem(
                file: file.path, line: place.line, column: place.column,
                message: "network.forward applies to live requests, but this scenario sends none (mode fake, no route with live: true); remove it, mark a route live: true, or use mode live."))
        }
        var sections: [String: LocatedValue] = [:], settings: [String: ServiceSetting] = [:]
        switch resolveServices(file, parent: parent) {
        case .success(let resolved): (sections, settings) = resolved
        case .failure(let found): problems += found.list
        }
        guard problems.isEmpty else { return .failure(Problems(list: problems)) }
        var scenario = Scenario(
            name: file.name,
            description: file.description ?? parent?.description ?? "",
            model: model,
            directory: file.directory,
            ancestors: parent.map { [$0.name] + $0.ancestors } ?? [],
            clock: file.clock ?? parent?.clock ?? .default,
            seed: file.inheritsSeed ? (parent?.seed ?? [:]).merging(file.seed) { _, child in child } : file.seed,
            routes: routes,
            unmatched: file.unmatched ?? parent?.unmatched ?? .connectionRefused,
            network: network,
            keyValueStore: file.keyValueStore ?? parent?.keyValueStore ?? .memory,
            random: file.random ?? parent?.random ?? .default,
            scheduleSeed: file.scheduleSeed ?? parent?.scheduleSeed,
            services: settings)
        scenario.serviceSections = sections
        let parentRoutes = Set((parent?.routes ?? []).map(\.name))
        scenario.sources = Self.sources(
            of: file, parent: parent, routes: routes,
            patched: Set(file.routePatches.map(\.name)).intersection(parentRoutes).subtracting(file.routes.map(\.name)),
            sections: sections, live: Set(settings.filter { if case .live = $0.value { true } else { false } }.keys))
        scenario.fixtureDirectories = [file.directory] + (parent?.fixtureDirectories ?? []).filter { $0 != file.directory }
        return .success(scenario)
    }

    /// The file's routes first, then the parent's: replaced by a same-named route of the file, or changed in place
    /// by the file's patch of it; with a problem for each patch of a route the parent does not have.
    private static func routes(of file: ScenarioFile, parent: Scenario?) -> (routes: [Route], problems: [ScenarioProblem]) {
        let parentRoutes = parent?.routes ?? []
        let known = parentRoutes.map(\.name)
        var problems: [ScenarioProblem] = []
        var patches: [String: RoutePatch] = [:]
        for patch in file.routePatches {
            guard let route = parentRoutes.first(where: { $0.name == patch.name }) else {
                if let parent {
                    problems.append(ScenarioProblem(
                        file: file.path, line: patch.line, column: patch.column,
                        message: "extends route '\(patch.name)', but '\(parent.name)' has no route of that name.\(Suggestion.didYouMean(patch.name, among: known)) Its routes: \(known.isEmpty ? "none" : known.joined(separator: ", "))."))
                }
                continue
            }
            if route.isLive, patch.live == false, patch.response == nil, patch.responses == nil {
                problems.append(ScenarioProblem(
                    file: file.path, line: patch.line, column: patch.column,
                    message: "route '\(patch.name)' of '\(parent?.name ?? "")' is live and this makes it not live, so it needs 'response' or 'responses'."))
                continue
            }
            patches[patch.name] = patch
        }
        let childRoutes = Set(file.routes.map(\.name))
        let inherited = parentRoutes.filter { !childRoutes.contains($0.name) }.map { route in
            patches[route.name].map { $0.apply(to: route) } ?? route
        }
        // A route a patch changed may now answer what its requests cannot take (a stream on a WebSocket's URL).
        for route in inherited {
            guard let patch = patches[route.name], let mismatch = route.transportMismatch else { continue }
            problems.append(ScenarioProblem(file: file.path, line: patch.line, column: patch.column, message: mismatch))
        }
        return (file.routes + inherited, problems)
    }

    /// Each team service's setting: `live`, or its fake's state decoded from this file's section merged over the
    /// parent's (or over the initial state), with every problem placed in the file that wrote it.
    private func resolveServices(_ file: ScenarioFile, parent: Scenario?)
        -> Result<(sections: [String: LocatedValue], settings: [String: ServiceSetting]), Problems> {
        var sections = parent?.serviceSections ?? [:]
        var settings: [String: ServiceSetting] = [:]
        var problems: [ScenarioProblem] = []
        for service in services {
            switch file.serviceSections[service.name] {
            case .live?:
                sections[service.name] = nil
                settings[service.name] = .live
            case .state(let section)?:
                sections[service.name] = section.merged(over: sections[service.name] ?? initialSection(of: service))
                fallthrough
            case nil:
                guard let section = sections[service.name] else {
                    settings[service.name] = parent?.services[service.name] ?? .fake(state: service.initialState)
                    continue
                }
                switch ServiceStateDecoding.decode(section.json, for: service, section: service.name) {
                case .success(let state): settings[service.name] = .fake(state: state)
                case .failure(let failures):
                    problems += failures.list.map { failure in
                        let place = section.place(of: failure.path)
                        return ScenarioProblem(file: place.file, line: place.line, column: place.column, message: failure.message)
                    }
                }
            }
        }
        return problems.isEmpty ? .success((sections, settings)) : .failure(Problems(list: problems))
    }

    /// The service's initial state as a section, so a scenario's section need only say what differs from it.
    private func initialSection(of service: ServiceDefinition) -> LocatedValue {
        LocatedValue(json: service.encode(service.initialState),
                     place: .init(file: "(the initial state of \(service.name), \(service.stateType))"))
    }
}
