import FeedReader
import Ratings
import Assistant
import TripPlanner
import ScenarioDaemon

// scenariod is a daemon like any team's: its four example Models, registered here and nowhere else.
await Daemon.main(name: "scenariod", version: "0.1.0", models: [FeedReader.self, Ratings.self, Assistant.self, TripPlanner.self])
