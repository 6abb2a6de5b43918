import ControlAPI
import Fakes
import ScenarioClient
import ScenarioDaemon
import ScenarioExplore
import ScenarioFormat
import ScenarioTesting
import ScenarioURLLoading
import Services
import Testing

/// Every library product imported into one file, as a team's tests may, each type named through its module: a type
/// named like a module hides that module in every file that imports both (`ScenarioDaemon.Daemon` once failed to
/// compile beside ScenarioTesting's type of that name), so this file stops compiling if one comes back.
@Suite struct EveryProductTests {
    @Test func oneTypeOfEachProductIsNamedThroughItsModule() {
        let types: [Any.Type] = [
            ScenarioDaemon.Daemon.self, ScenarioTesting.TestDaemon.self, Services.ModelServices.self, Fakes.ServiceDefinition.self,
            ScenarioFormat.ScenarioCatalog.self, ControlAPI.APIErrorCode.self, ScenarioClient.ControlClient.self,
            ScenarioExplore.Explorer.self, ScenarioURLLoading.ScenarioURLProtocol.self,
        ]
        let modules = ["ScenarioDaemon", "ScenarioTesting", "Services", "Fakes", "ScenarioFormat", "ControlAPI", "ScenarioClient",
                       "ScenarioExplore", "ScenarioURLLoading"]
        #expect(types.map { String(reflecting: $0).split(separator: ".").first.map(String.init) } == modules)
    }
}
