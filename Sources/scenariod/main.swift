import FeedReader
import Ratings
import ScenarioDaemon

// scenariod is a daemon like any team's: its two example Models, registered here and nowhere else.
await Daemon.main(name: "scenariod", version: "0.1.0", models: [FeedReader.self, Ratings.self])
