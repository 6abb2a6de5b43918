import Fakes
import ScenarioDaemon
import TodoFakes
import TodoList

// The whole daemon: the flags, the control socket, systemd, the journal, reload and drain come with it.
await Daemon.main(name: "todod", version: "1.0.0", models: [TodoList.self], services: [.notifications])
