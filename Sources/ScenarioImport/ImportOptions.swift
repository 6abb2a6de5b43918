/// What every import is told: the new scenario's name and Model, and what the source cannot say itself.
public struct ImportOptions: Sendable, Hashable {
    /// The new scenario's name (its directory's name).
    public var scenario: String
    /// The Model the scenario runs (`model:`); the importer cannot know which Model sends the requests.
    public var model: String
    /// The origin relative URLs are joined to (`https://api.example`): WireMock's URLs are paths, and an OpenAPI
    /// document's `servers` may be relative or missing. Nil: the source's own, else `http://localhost:8080`.
    public var baseURL: String?
    /// Keep `Authorization`, `Cookie` and `Set-Cookie` values, which an import leaves out as a recording does.
    public var keepSecrets: Bool
    /// The seed of bodies generated from schemas, written as the scenario's `random: {seed:}`.
    public var seed: UInt64

    /// Options for a scenario `scenario` of Model `model`.
    public init(scenario: String, model: String, baseURL: String? = nil, keepSecrets: Bool = false, seed: UInt64 = 0) {
        self.scenario = scenario
        self.model = model
        self.baseURL = baseURL
        self.keepSecrets = keepSecrets
        self.seed = seed
    }

    /// The origin of relative URLs when neither the user nor the source gives one: WireMock's own default.
    static let defaultBaseURL = "http://localhost:8080"
}
