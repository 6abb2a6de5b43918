public import Fakes
import TodoList

/// The notifications a scenario fakes: shown into the session's ``Inbox`` (or refused when the inbox says the user
/// turned them off), each journaled beside the network requests.
public struct FakeNotifier: Notifier {
    let context: ServiceFakeContext<Inbox>

    /// A notifier over the session's inbox.
    public init(context: ServiceFakeContext<Inbox>) {
        self.context = context
    }

    public func notify(_ notice: Notice) async throws(NotifierError) {
        let now = await context.clock.now()
        let shown = context.update { inbox in
            guard inbox.permission == .granted else { return false }
            inbox.delivered.append(Inbox.Delivery(title: notice.title, body: notice.body, at: now))
            return true
        }
        await context.journal("notify", detail: notice.body, outcome: shown ? "shown" : "refused: notifications are off")
        if !shown { throw .notAllowed }
    }
}

extension ServiceDefinition {
    /// The `notifications` service as scenarios fake it; there is no live one in this example.
    public static let notifications = ServiceDefinition(
        NotifierKey.self, description: "Notifications shown to the user", initialState: Inbox()
    ) { context in FakeNotifier(context: context) }
}
