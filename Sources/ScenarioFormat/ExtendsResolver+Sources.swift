import Fakes
import Foundation
import Services

extension ExtendsResolver {
    /// Which scenario wrote each setting of `file` resolved over `parent` (``Scenario/sources``): the file's own
    /// settings are its, the rest keep the parent's marks, following the same rules as the resolution (a seed merges
    /// by key unless `inheritSeed: false`, a route is replaced or changed by name, a service section merges by key).
    static func sources(of file: ScenarioFile, parent: Scenario?, routes: [Route], patched: Set<String>,
                        sections: [String: LocatedValue], live: Set<String>) -> [String: [String]] {
        var sources = parent?.sources ?? [:]
        let own = [file.name]
        func set(_ pointer: String, when written: Bool) {
            if written { sources[pointer] = own }
        }
        set("/description", when: file.description != nil)
        set("/model", when: file.model != nil)
        set("/clock", when: file.clock != nil)
        set("/random", when: file.random != nil)
        set("/schedule", when: file.scheduleSeed != nil)
        set("/keyValue/store", when: file.keyValueStore != nil)
        if !file.inheritsSeed {
            sources = sources.filter { !$0.key.hasPrefix("/keyValue/seed/") }
        }
        for key in file.seed.keys { sources["/keyValue/seed/" + JSONValue.pointerToken(key)] = own }
        set("/network/mode", when: file.networkMode != nil)
        set("/network/unmatched", when: file.unmatched != nil)
        set("/network/timeouts/connect", when: file.connectTimeout != nil)
        set("/network/timeouts/read", when: file.readTimeout != nil)
        set("/network/redirects", when: file.redirects != nil)
        for origin in file.forward.keys { sources["/network/forward/" + JSONValue.pointerToken(origin)] = own }
        if !file.redact.isEmpty { sources["/network/redact", default: []].append(file.name) }
        // Routes by name: a route of this file is its own; a parent's route this file changes is the parent's
        // source and then this file.
        let routeNames = Set(routes.map(\.name))
        sources = sources.filter { !$0.key.hasPrefix("/network/routes/") || routeNames.contains(JSONValue.name(ofPointerToken: String($0.key.dropFirst("/network/routes/".count)))) }
        for route in file.routes { sources["/network/routes/" + JSONValue.pointerToken(route.name)] = own }
        for name in patched { sources["/network/routes/" + JSONValue.pointerToken(name), default: []].append(file.name) }
        // A service section: each value the merged section holds, marked with the file that wrote it; what comes
        // from the initial state is unmarked. `live` is marked on the section itself.
        for name in Set(sections.keys).union(live) {
            let pointer = "/" + JSONValue.pointerToken(name)
            sources = sources.filter { $0.key != pointer && !$0.key.hasPrefix(pointer + "/") }
            if live.contains(name) {
                sources[pointer] = file.serviceSections[name] != nil ? own : (parent?.sources[pointer] ?? [])
            } else if let section = sections[name] {
                mark(section, at: pointer, in: &sources)
            }
        }
        return sources.filter { !$0.value.isEmpty }
    }

    /// Marks each leaf of `value` (a scalar, a list, an empty mapping) with the scenario whose file wrote it.
    private static func mark(_ value: LocatedValue, at pointer: String, in sources: inout [String: [String]]) {
        if case .object(let entries, _) = value, !entries.isEmpty {
            for entry in entries { mark(entry.value, at: pointer + "/" + JSONValue.pointerToken(entry.key), in: &sources) }
            return
        }
        if let scenario = scenarioName(ofFile: value.place.file) { sources[pointer] = [scenario] }
    }

    /// The scenario a file belongs to: its directory's name; nil for what no scenario file wrote (an initial state).
    private static func scenarioName(ofFile path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        guard url.lastPathComponent == ScenarioCatalog.fileName else { return nil }
        return url.deletingLastPathComponent().lastPathComponent
    }

}
