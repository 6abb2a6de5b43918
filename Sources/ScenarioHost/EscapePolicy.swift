/// What a host does when a Model escapes its session (``/Fakes/ModelEscape``): work the session cannot see or
/// order makes its run no longer the scenario's alone.
public enum EscapePolicy: String, Sendable, Hashable, CaseIterable {
    /// Report it (event, session info, journal) and go on: a demo keeps running. The daemon's default.
    case warn
    /// Report it and fail the step that did it with `modelEscaped` (409): a test must not pass on a run the
    /// session did not own. ScenarioTesting's default.
    case fail
}
