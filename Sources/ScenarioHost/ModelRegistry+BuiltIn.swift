import FeedReader
import Ratings

extension ModelRegistry {
    /// Every Model that ships with scenariod.
    public static var builtIn: ModelRegistry {
        var registry = ModelRegistry()
        registry.register(FeedReader.self)
        registry.register(Ratings.self)
        return registry
    }
}
