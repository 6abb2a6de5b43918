// A session's page: its panels, a presenter's keys, and the session's event stream, which keeps every panel as the
// session is, whoever changes it (this tab, another, a test, scenarioctl): live changes never come from polling.

import { api, attempt, connection, eventStream, load, Outage, showError } from "./api.js";
import { el, encode, heldText, heldTitle } from "./dom.js";
import { leavePage, whenLeaving } from "./leaving.js";
import { sessionGone } from "./pages.js";
import { actionsPanel } from "./session-actions.js";
import { clockPanel } from "./session-clock.js";
import { historyPanel } from "./session-history.js";
import { journalPanel } from "./session-journal.js";
import { networkPanel } from "./session-network.js";
import { statePanel } from "./session-state.js";
import { keyValuePanel } from "./session-store.js";
import { streamsPanel } from "./session-streams.js";

const main = document.getElementById("main");
const presenterKey = "scenariod-dashboard-presenter";

export async function sessionPage(id) {
  const base = `/v1/sessions/${encode(id)}`;
  let session, models, scenario;
  try {
    [session, models] = await Promise.all([api("GET", base), api("GET", "/v1/models")]);
    scenario = await api("GET", `/v1/scenarios/${encode(session.scenario)}`).catch(() => null);
  } catch (error) {
    if (error.code === "unknownSession") sessionGone(id);
    else if (!(error instanceof Outage)) showError(error);
    return;
  }
  const model = models.find((candidate) => candidate.name === session.model) || { actions: [], keys: [] };
  const state = statePanel(), journal = journalPanel(base, scenario), streams = streamsPanel(base), history = historyPanel(base);
  const clock = clockPanel(base, scenario, session.now), network = networkPanel(base, scenario), keyValues = keyValuePanel(base);

  const title = el("h1", {}, "Session ", el("span", { class: "mono" }, id), " ", el("span", { class: "muted" }, `of ${session.scenario} (${session.model})`));
  // What the session's stores hold, read again after each change (GET …/ID's held).
  const held = el("p", { class: "muted", id: "held" });
  function showHeld(info) {
    held.textContent = info.held ? `Holds ${heldText(info.held)}: ${heldTitle(info.held)}.` : "";
  }
  // Every escape the session has seen, those before the page opened included (the banner shows those it sees).
  const escapes = el("ul", { class: "misses status-bad", id: "escapes" });
  function showEscapes(info) {
    const seen = info.escapes || [];
    escapes.replaceChildren(...seen.map((escape) => el("li", {}, `The Model escaped its session during ${escape.during || "its run"}: ${escape.detail} (${escape.remedy}).`)));
    escapes.hidden = seen.length === 0;
  }
  showHeld(session);
  showEscapes(session);
  // The session's own HTTP listener, for an app the daemon does not host. One without a token opens in this browser;
  // one with a token is reached through the proxy URL (the browser's proxy settings), since no URL or cookie may
  // carry the token: a browser hands those to other servers.
  const endpoint = el("p", { class: "muted", id: "endpoint" });
  const listener = session.endpoint;
  if (!listener) endpoint.hidden = true;
  else if (listener.socket) endpoint.append("Endpoint: Unix socket ", el("span", { class: "mono" }, listener.socket));
  else {
    const address = listener.token ? el("span", { class: "mono" }, listener.url)
      : el("a", { href: `${listener.url}/`, target: "_blank", rel: "noopener", class: "mono" }, listener.url);
    // The token is hidden until asked for: the dashboard is often on a projected screen.
    const masked = listener.token ? listener.proxy.replace(listener.token, "••••••••") : listener.proxy;
    const proxy = el("span", { class: "mono", id: "endpoint-proxy" }, masked);
    const reveal = listener.token && el("button", { type: "button", id: "endpoint-reveal", onclick: () => {
      const showing = proxy.textContent !== masked;
      proxy.textContent = showing ? masked : listener.proxy;
      reveal.textContent = showing ? "show token" : "hide token";
    } }, "show token");
    endpoint.append("Endpoint: ", address, " · proxy ", proxy, reveal ? " " : "", reveal || "",
      listener.origin ? ` · origin ${listener.origin}` : "");
  }
  const refreshHeld = async () => { const info = await api("GET", base).catch(() => null); if (info) { showHeld(info); showEscapes(info); } };
  const saveName = el("input", { type: "text", id: "save-name", placeholder: "new-scenario-name", "aria-label": "Name of the new scenario", pattern: "[A-Za-z0-9][A-Za-z0-9._\\-]{0,63}" });
  const reset = () => attempt(() => api("POST", `${base}/reset`));

  function togglePresenter(on = !document.body.classList.contains("presenter")) {
    document.body.classList.toggle("presenter", on);
    sessionStorage.setItem(presenterKey, on ? "1" : "");
    presenter.setAttribute("aria-pressed", String(on));
  }
  const presenter = el("button", { type: "button", id: "presenter", "aria-pressed": "false", onclick: () => togglePresenter() }, "Presenter mode");
  /** Keys for a presenter, when no field has the focus: next step (advance the clock), rewind one, reset, play, mode. */
  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || connection.down) return;
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    // Space on a focused button, link or disclosure presses it, as everywhere else on the web.
    if (event.key === " " && event.target.closest && event.target.closest("button, a, summary")) return;
    const keys = { n: clock.step, ArrowRight: clock.step, b: history.rewindOne, ArrowLeft: history.rewindOne,
      r: reset, p: () => togglePresenter(), " ": clock.togglePlay };
    const work = keys[event.key];
    if (!work) return;
    event.preventDefault();
    work();
  }
  document.addEventListener("keydown", onKey);

  main.replaceChildren(
    title,
    held,
    endpoint,
    escapes,
    el("div", { class: "row" },
      // What a change did arrives through the event stream, as it does for a change made anywhere else.
      el("button", { type: "button", id: "reset", onclick: reset }, "Reset"),
      el("button", { type: "button", onclick: async () => { if (await attempt(() => api("DELETE", base).then(() => true))) location.hash = "#/sessions"; } }, "Delete"),
      el("form", { class: "row", id: "save", onsubmit: async (event) => {
        event.preventDefault();
        const saved = await attempt(() => api("POST", `${base}/save`, { name: saveName.value.trim() }));
        if (saved) {
          const started = await attempt(() => api("POST", "/v1/sessions", { scenario: saved.scenario }));
          if (started) location.hash = `#/session/${encode(started.id)}`;
        }
      } }, saveName, el("button", { type: "submit" }, "Save as scenario")),
      presenter),
    el("p", { class: "keys muted" }, "Keys: n or → next step (advance the clock by the duration below) · b or ← go back one step · r reset · space play or pause · p presenter mode"),
    el("div", { class: "grid" },
      el("div", {}, state.node, streams.node, journal.node),
      el("div", {}, clock.node, network.node, actionsPanel(base, model), keyValues.node, history.node)),
  );

  togglePresenter(sessionStorage.getItem(presenterKey) === "1");

  async function refreshAll() {
    const [current, now] = await Promise.all([load(() => api("GET", `${base}/state`)), load(() => api("GET", `${base}/clock`))]);
    if (current !== undefined) state.show(current);
    if (now) clock.showNow(now.now);
    await Promise.all([journal.refresh(), history.refresh(), keyValues.refresh(), network.refresh(), streams.refresh()]);
  }

  await refreshAll();
  // Every change anyone makes to the session (this tab, another, a test, scenarioctl) ends with historyChanged: then
  // the history, the key-value state and, after a rewind, reset or clear, the whole journal are read again. This
  // tab's own changes are shown the same way, so it reads nothing twice.
  let newestStep = Infinity; // so the first event reads the journal again, in case it changed while the page loaded
  state.stepEnded();
  connection.onBack = null;
  const events = eventStream(`${base}/events`, {
    stateChanged: (event) => state.show(JSON.parse(event.data)),
    requestJournaled: (event) => journal.showEntry(JSON.parse(event.data)),
    clockMoved: (event) => { clock.showNow(JSON.parse(event.data).now); streams.refresh(); },
    streamChanged: (event) => streams.changed(JSON.parse(event.data)),
    // Work the session could not see or order: what is shown next is not the scenario's alone, so say so and stay.
    modelEscaped: (event) => {
      const escape = JSON.parse(event.data);
      // The remedy is written to follow a colon in the API's messages; here it starts a sentence.
      const remedy = escape.remedy.charAt(0).toUpperCase() + escape.remedy.slice(1);
      showError(new Error(`The Model escaped its session during ${escape.during || "its run"}: ${escape.detail}. ${remedy}.`));
      refreshHeld();
    },
    historyChanged: async (event) => {
      state.stepEnded();
      const newest = JSON.parse(event.data).newestStep;
      const steps = await history.refresh();
      const kind = steps && steps.steps.length ? steps.steps[steps.steps.length - 1].kind : "";
      if (newest < newestStep || kind === "reset" || kind === "clearJournal") await journal.refresh();
      // A rewind or reset rebuilt the session: a stream that ended before may never have been.
      if (newest < newestStep || kind === "reset") streams.forgetEnded();
      newestStep = newest;
      await Promise.all([keyValues.refresh(), network.refresh(), streams.refresh(), refreshHeld()]);
    },
    // Missed events no longer kept (or a daemon that restarted): read everything again.
    gap: () => refreshAll(),
  }, (error) => {
    if (error.code !== "unknownSession") { showError(new Error(`The event stream of session ${id} ended: ${error.message}`)); return; }
    leavePage();
    sessionGone(id, session.scenario);
  });
  whenLeaving(() => {
    events.close();
    clock.stop();
    document.removeEventListener("keydown", onKey);
    // Only a session page has presenter mode; the tab remembers it for the next one.
    document.body.classList.remove("presenter");
  });
}
