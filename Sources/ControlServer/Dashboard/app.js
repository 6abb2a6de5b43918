// The scenariod dashboard: plain JavaScript modules, no build step, every request a documented control API
// operation on the same origin (the daemon's socket, or `scenarioctl dashboard`'s bridge to it). Live changes come
// from the session's event stream, never from polling.

const main = document.getElementById("main");
const banner = document.getElementById("banner");
const bannerText = document.getElementById("banner-text");
document.getElementById("banner-close").addEventListener("click", () => { banner.hidden = true; });

// The bridge's secret comes in the printed URL's fragment, which a browser never sends to a server. That link's token
// opens one tab: the page trades it at once (POST /bridge/tab) for a token of this tab's own, kept in its
// sessionStorage, which is per origin and so per port: no other local server ever receives it (a cookie would reach
// every port of 127.0.0.1), and the copy of the URL in the browser's history opens nothing. It goes out only as an
// Authorization header. Served straight from the daemon's socket, the page has none and needs none.
const tokenKey = "scenariod-dashboard-token";
/** Whether this tab has no token the bridge takes: a new link in the address then starts the page afresh. */
let tokenRefused = false;
/** Why a link opened in a working tab opened nothing: shown once the page it goes on with is drawn. */
let linkNotice = null;
/** Trades a link's token in the address's fragment for this tab's own, and takes it out of the address; run at load
 * and on every hash change, since opening a printed URL in a tab already on the dashboard changes only the fragment. */
async function takeTokenFromAddress() {
  if (!location.hash.startsWith("#token=")) return;
  const given = new URLSearchParams(location.hash.slice(1));
  const session = given.get("session");
  history.replaceState(null, "", `${location.pathname}${session ? `#/session/${encodeURIComponent(session)}` : "#/scenarios"}`);
  let response;
  try {
    response = await fetch("/bridge/tab", { method: "POST", headers: { Authorization: `Bearer ${given.get("token")}` } });
  } catch {
    connection.lost("(the dashboard's bridge does not answer; is `scenarioctl dashboard` still running?)");
    return;
  }
  const data = await response.json().catch(() => null);
  if (response.ok && data && data.token) {
    sessionStorage.setItem(tokenKey, data.token);
    // The page stopped everything when the old token was refused; with the new one it starts again, as loaded.
    if (tokenRefused) location.reload();
    return;
  }
  const message = data && data.message ? data.message : `POST /bridge/tab answered ${response.status}`;
  if (sessionStorage.getItem(tokenKey)) linkNotice = `That URL opened nothing: ${message} This tab goes on as it was.`;
  else connection.refused(`That URL opened nothing: ${message}`);
}
// A document that arrives by a new navigation (not a reload or a step through the tab's history) without a link in
// its address starts without a token: a popup that a page of another port opens starts with a copy of its tab's
// sessionStorage, token included (Chromium copies it even across the Cross-Origin-Opener-Policy the page is served
// with, which only cuts the popup off from its opener). So a typed or opened address needs a printed URL again.
if (performance.getEntriesByType("navigation")[0]?.type === "navigate" && !location.hash.startsWith("#token=")) {
  sessionStorage.removeItem(tokenKey);
}
/** Settles once a link in the address has been traded (or there was none): nothing is sent before. */
let tokenTaken = takeTokenFromAddress();
async function withToken(headers = {}) {
  await tokenTaken;
  const token = sessionStorage.getItem(tokenKey);
  return token ? { ...headers, Authorization: `Bearer ${token}` } : headers;
}
/** The id of the session this tab shows, as the address holds it (percent-encoded); undefined on a list page. */
function sessionInAddress() {
  return (location.hash.match(/^#\/session\/(.+)$/) || [])[1];
}
/** Opens this page in a new tab through a one-use link this tab asks the bridge for (a tab's own token stays in it). */
async function openNewTab() {
  const link = await api("POST", "/bridge/link");
  const session = sessionInAddress();
  window.open(`${location.pathname}#token=${link.token}${session ? `&session=${session}` : ""}`, "_blank", "noopener");
}
const newTab = document.getElementById("new-tab");
newTab.addEventListener("click", () => attempt(openNewTab));
// Only a tab of the bridge can open another; on the daemon's socket every tab is already the whole page.
tokenTaken.then(() => { newTab.hidden = !sessionStorage.getItem(tokenKey); });

/** Thrown instead of sending while the daemon is stopped: the outage banner already says so. */
class Outage extends Error {}

/**
 * Whether the daemon answers. While it does not, one banner says so, every control is disabled and nothing is
 * sent (a click is refused, never kept to send later); the page asks every second and, once the daemon answers,
 * enables the controls again and lets whatever waits on `back()` (the event stream) carry on.
 */
const connection = {
  down: false,
  waiting: [],
  /** Called by the current page when the daemon is back, unless its event stream catches up by itself. */
  onBack: null,

  lost(detail) {
    if (this.down) return;
    this.down = true;
    this.say(`The daemon stopped — reconnecting… ${detail || ""}`.trim());
    const poll = setInterval(async () => {
      try {
        // Bounded: a daemon that is stopped (not gone) takes the connection and never answers.
        const answer = await fetch("/v1/health", { headers: await withToken(), signal: AbortSignal.timeout(900) });
        if (answer.ok) { clearInterval(poll); this.found(); }
        if (answer.status === 401) { clearInterval(poll); this.refused(); }
      } catch { /* still away */ }
    }, 1000);
  },

  /** Shows `text` in the outage banner and disables every control until `found()`. */
  say(text) {
    bannerText.textContent = text;
    banner.classList.add("outage");
    banner.hidden = false;
    for (const control of document.querySelectorAll("#main button, #main input, #main select, #main textarea")) {
      if (control.disabled) continue;
      control.disabled = true;
      control.dataset.outage = "";
    }
  },

  /** This tab's token is not the bridge's (a bridge restarted on this address, or a link that opened a tab
   * already): nothing is sent any more and the banner says how to come back to this page. */
  refused(why) {
    this.down = true;
    tokenRefused = true;
    // A tab without a token the bridge takes cannot open another either (a link a new URL brings reloads the page).
    newTab.hidden = true;
    const session = sessionInAddress();
    const way = `${session ? ` Add &session=${session} to it to come back to this session.` : ""}`;
    // The bridge's messages quote commands in backticks and labels in straight quotes, as a terminal shows them; a
    // page shows typographic quotes for both.
    this.say((why ? `${why}${way}` : "scenarioctl dashboard was restarted, and its new URL carries a token of its own: this tab "
      + `can no longer reach it. Open the URL it printed last.${way}`).replace(/[`"]([^`"]*)[`"]/g, "“$1”"));
    // A page that never drew (a used link opened in a new tab) would go on saying "Loading…" under the banner.
    if (main.textContent.trim() === "Loading…") main.replaceChildren();
  },

  found() {
    this.down = false;
    if (banner.classList.contains("outage")) banner.hidden = true;
    banner.classList.remove("outage");
    for (const control of document.querySelectorAll("#main [data-outage]")) {
      control.disabled = false;
      delete control.dataset.outage;
    }
    for (const resume of this.waiting.splice(0)) resume();
    if (this.onBack) this.onBack();
  },

  /** Resolves once the daemon answers again. */
  back() { return this.down ? new Promise((resume) => this.waiting.push(resume)) : Promise.resolve(); },
};

/** Calls the control API; a refusal throws an Error with the API's message and code. */
async function api(method, path, body) {
  const init = { method, headers: await withToken() };
  // After the token: a refused trade of a link stops everything as an outage does.
  if (connection.down) throw new Outage("the daemon is stopped; nothing was sent");
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    connection.lost("(the dashboard's bridge does not answer; is `scenarioctl dashboard` still running?)");
    throw new Outage("no answer");
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (response.status === 401 && data && data.code === "tokenRefused") {
    connection.refused();
    throw new Outage(data.message);
  }
  if (response.status === 503 && data && data.code === "daemonUnavailable") {
    connection.lost(`(${data.message})`);
    throw new Outage(data.message);
  }
  if (!response.ok) {
    const message = data && data.message ? `${data.message} (${data.code}, ${method} ${path})` : `${method} ${path} answered ${response.status}: ${text}`;
    throw Object.assign(new Error(message), { code: data && data.code, status: response.status });
  }
  return data;
}

/**
 * A session's server-sent events, read with fetch so that they carry the Authorization header (EventSource cannot
 * send one; parsed here because the page has no libraries). After an outage it reconnects by itself, resuming after
 * the last id it saw (Last-Event-ID), until closed; `gone` hears a refusal such as a deleted session.
 */
function eventStream(path, handlers, gone) {
  const stop = new AbortController();
  let lastId = null;
  (async () => {
    while (!stop.signal.aborted) {
      const headers = await withToken({ Accept: "text/event-stream" });
      if (lastId !== null) headers["Last-Event-ID"] = lastId;
      // The daemon writes a heartbeat into a quiet stream every half second: silence for longer than
      // `silenceLimit` means it stopped answering (stopped, hung), which is said at once rather than at the next click.
      const attempt = new AbortController();
      const abortAttempt = () => attempt.abort();
      stop.signal.addEventListener("abort", abortAttempt);
      let heard = Date.now();
      let silent = false;
      const watchdog = setInterval(() => {
        if (Date.now() - heard <= silenceLimit) return;
        silent = true;
        attempt.abort();
        connection.lost("(no heartbeat from the daemon for 2 s: it is stopped or hung)");
      }, 250);
      const finished = () => { clearInterval(watchdog); stop.signal.removeEventListener("abort", abortAttempt); };
      let response;
      try {
        response = await fetch(path, { headers, signal: attempt.signal });
      } catch {
        finished();
        if (stop.signal.aborted) return;
        connection.lost("(the dashboard's bridge does not answer; is `scenarioctl dashboard` still running?)");
        await connection.back();
        continue;
      }
      heard = Date.now();
      if (!response.ok) {
        finished();
        const data = await response.json().catch(() => null);
        if (response.status === 503 && data && data.code === "daemonUnavailable") {
          connection.lost(`(${data.message})`);
          await connection.back();
          continue;
        }
        if (response.status === 401 && data && data.code === "tokenRefused") { connection.refused(); return; }
        gone(Object.assign(new Error(data && data.message ? `${data.message} (${data.code})` : `the event stream answered ${response.status}`),
          { code: data && data.code }));
        return;
      }
      try {
        await readEvents(response.body, (event) => {
          if (event.id !== null) lastId = event.id;
          const handle = handlers[event.name];
          if (handle) handle(event);
        }, () => { heard = Date.now(); });
      } catch { /* the connection broke: reconnect below */ }
      finished();
      // Silent: reconnect once the daemon answers again, resuming after the last id seen.
      if (silent) { await connection.back(); continue; }
      // The stream ended: the daemon stopped or the session was deleted; the next request tells which.
      if (!stop.signal.aborted) await new Promise((resume) => setTimeout(resume, 250));
    }
  })();
  return { close: () => stop.abort() };
}

/** How long an event stream may stay silent (heartbeats included) before the daemon counts as not answering. */
const silenceLimit = 1750;

/** Calls `dispatch({name, data, id})` for each event of a text/event-stream body, until it ends; `heard()` for
 * every chunk, heartbeats included. */
async function readEvents(body, dispatch, heard = () => {}) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    heard();
    buffer = (buffer + value).replace(/\r\n?/g, "\n");
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const event = { name: "message", data: [], id: null };
      for (const line of buffer.slice(0, end).split("\n")) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event.name = text;
        else if (field === "data") event.data.push(text);
        else if (field === "id") event.id = text;
      }
      buffer = buffer.slice(end + 2);
      dispatch({ name: event.name, data: event.data.join("\n"), id: event.id });
    }
  }
}

function showError(error) {
  bannerText.textContent = error.message || String(error);
  banner.hidden = false;
}

/**
 * Runs `work`, showing what went wrong in the banner instead of failing silently; undefined when it failed. What a
 * person asked for clears the last error first; a refresh the page makes by itself (`load`) leaves it up to be read.
 */
async function attempt(work, clearsBanner = true) {
  try {
    if (clearsBanner && !connection.down) banner.hidden = true;
    return await work();
  } catch (error) {
    if (!(error instanceof Outage)) showError(error);
    return undefined;
  }
}

/** A DOM element: el("button", {type: "button", onclick: f}, "text", child…). */
/** `text` (a URL) with a place to break after each `/`, `?`, `&` and `=`: a long one wraps between its parts. */
function breakable(text) {
  return text.split(/(?<=[/?&=])/).flatMap((part, index) => index ? [el("wbr"), part] : [part]);
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const load = (work) => attempt(work, false);
const faults = ["timeout", "connectionReset", "connectionRefused", "offline", "cancelled"];
const encode = (text) => encodeURIComponent(text);
const json = (value) => JSON.stringify(value);

// MARK: Pages

let leavePage = () => {};

async function route() {
  // After any trade still under way (the one at load), never beside it: requests wait for the newest.
  tokenTaken = tokenTaken.then(takeTokenFromAddress);
  await tokenTaken;
  leavePage();
  leavePage = () => {};
  // A list page is read again when the daemon is back; a session page's event stream catches up by itself.
  connection.onBack = route;
  const [, page, id] = location.hash.match(/^#\/([^/]*)\/?(.*)$/) || [null, "scenarios", ""];
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.page === page) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  if (page === "session" && id) await sessionPage(decodeURIComponent(id));
  else if (page === "sessions") await sessionsPage();
  else await scenariosPage();
  if (linkNotice) showError(new Error(linkNotice));
  linkNotice = null;
  main.focus({ preventScroll: true });
}

async function scenariosPage() {
  const scenarios = await attempt(() => api("GET", "/v1/scenarios"));
  if (!scenarios) return;
  main.replaceChildren(
    el("h1", {}, "Scenarios"),
    el("div", { class: "panel" }, el("table", { id: "scenarios" },
      el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Model"), el("th", {}, "Valid"), el("th", {}, "Description"), el("th", {}, ""))),
      el("tbody", {}, scenarios.map((scenario) => el("tr", { "data-scenario": scenario.name },
        el("td", { class: "mono" }, scenario.name),
        el("td", {}, scenario.model || ""),
        el("td", {}, scenario.valid
          ? el("span", { class: "badge good" }, scenario.servingLastGood ? "serving last good version" : "valid")
          : el("span", { class: "badge bad" }, "invalid")),
        el("td", { class: "wrap" }, scenario.description || "",
          scenario.problems.length ? el("ul", { class: "misses" }, scenario.problems.map((problem) => el("li", { class: "mono" }, problem))) : null),
        el("td", {}, scenario.valid ? el("button", { type: "button", class: "primary", onclick: () => startSession(scenario.name) }, "Start a session") : null),
      ))),
    )),
  );
}

async function startSession(scenario) {
  const session = await attempt(() => api("POST", "/v1/sessions", { scenario }));
  if (session) location.hash = `#/session/${encode(session.id)}`;
}

/** A session that is not there (deleted, or a daemon that restarted without it): say so, with ways back. */
function sessionGone(id, scenario) {
  main.replaceChildren(
    el("h1", {}, "No session ", el("span", { class: "mono" }, id)),
    el("div", { class: "panel", id: "gone" },
      el("p", {}, `There is no session ${id}: it was deleted, or the daemon restarted without it.`),
      el("div", { class: "row" },
        el("a", { href: "#/sessions" }, "Open sessions"),
        el("a", { href: "#/scenarios" }, "Scenarios"),
        scenario ? el("button", { type: "button", class: "primary", onclick: () => startSession(scenario) }, `Start a new session of ${scenario}`) : null)));
}

/** Bytes for a person: `512 B`, `64.0 KiB`, `15.3 MiB`, as the daemon's messages write them. */
function formatBytes(bytes) {
  for (const [unit, size] of [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]]) {
    if (bytes >= size) return `${(bytes / size).toFixed(1)} ${unit}`;
  }
  return `${bytes} B`;
}

/** What a session's stores hold, one line, with each store in its title. */
function heldText(held) {
  return held ? formatBytes(held.total) : "";
}
function heldTitle(held) {
  return held ? `journal ${formatBytes(held.journal)}, history ${formatBytes(held.history)}, event streams ${formatBytes(held.events)}, recording ${formatBytes(held.recording)}` : "";
}

async function sessionsPage() {
  leavePage();
  leavePage = () => {};
  const sessions = await attempt(() => api("GET", "/v1/sessions"));
  if (!sessions) return;
  const reload = () => sessionsPage();
  // The focused button, to give the focus back when the list is drawn again.
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#sessions tr[data-session] button")
    ? [document.activeElement.closest("tr").dataset.session, document.activeElement.textContent] : null;
  main.replaceChildren(
    el("h1", {}, "Sessions"),
    el("div", { class: "panel" }, sessions.length === 0 ? el("p", { class: "muted" }, "No open sessions. Start one from a scenario.") :
      el("table", { id: "sessions" },
        el("thead", {}, el("tr", {}, ["Session", "Scenario", "Virtual now", "Requests", "Unmatched", "Holds", ""].map((title) => el("th", {}, title)))),
        el("tbody", {}, sessions.map((session) => el("tr", { "data-session": session.id },
          el("td", {}, el("a", { href: `#/session/${encode(session.id)}` }, session.id)),
          el("td", { class: "mono" }, session.scenario),
          el("td", { class: "mono" }, session.now),
          el("td", {}, session.requests),
          el("td", {}, session.unmatchedRequests),
          el("td", { class: "held", title: heldTitle(session.held) }, heldText(session.held)),
          el("td", {}, el("div", { class: "row" },
            el("button", { type: "button", onclick: async () => { if (await attempt(() => api("POST", `/v1/sessions/${encode(session.id)}/reset`))) reload(); } }, "Reset"),
            el("button", { type: "button", onclick: async () => { if (await attempt(() => api("DELETE", `/v1/sessions/${encode(session.id)}`).then(() => true))) reload(); } }, "Delete"))),
        ))),
      )),
  );
  if (focused) {
    const row = main.querySelector(`#sessions tr[data-session="${CSS.escape(focused[0])}"]`);
    [...(row ? row.querySelectorAll("button") : [])].find((button) => button.textContent === focused[1])?.focus();
  }
  // Sessions made, changed and deleted elsewhere (a test run, an agent, another tab) show up: the list is read
  // every two seconds while it is shown, and drawn again only when it changed.
  const shown = JSON.stringify(sessions);
  let left = false;  // a read under way when the page is left must not draw the list over the next page
  const timer = setInterval(async () => {
    const latest = await api("GET", "/v1/sessions").catch(() => null);
    if (!left && latest && JSON.stringify(latest) !== shown) sessionsPage();
  }, 2000);
  leavePage = () => { left = true; clearInterval(timer); };
}

// MARK: A session

async function sessionPage(id) {
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
  let state = null;
  // The state when the last step ended: what the next step changed is measured from it, not from a state the
  // step passed through (a rewind rebuilds the session from its start before it replays).
  let stepStart = null;
  let journal = new Map();
  let playing = null;

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
  const refreshHeld = async () => { const info = await api("GET", base).catch(() => null); if (info) { showHeld(info); showEscapes(info); } };
  const now = el("span", { class: "now", id: "now" }, session.now);
  const stateTree = el("ul", { class: "tree", id: "state" });
  const journalBody = el("tbody", {});
  const noStreams = el("li", { class: "muted", id: "no-streams" }, "No open streams.");
  const streamsList = el("ul", { class: "streams", id: "streams" }, noStreams);
  // Each open stream's entry by its number, kept across refreshes so a push being typed keeps its text and focus.
  const streamItems = new Map();
  // The last stream seen to end (streamChanged), shown under the open ones until a rewind or reset, and its line.
  let endedStream = null, endedLine = null;
  // Answers of GET …/streams may come back out of order: only one asked for later than the last shown is shown.
  let streamsAsked = 0, streamsShown = 0;
  const historyList = el("ol", { class: "history", id: "history" });
  const keyValues = el("div", { id: "kv" });
  const saveName = el("input", { type: "text", id: "save-name", placeholder: "new-scenario-name", "aria-label": "Name of the new scenario", pattern: "[A-Za-z0-9][A-Za-z0-9._\\-]{0,63}" });
  const duration = el("input", { type: "text", id: "advance-by", value: "2s", size: "7", "aria-label": "Duration to advance by" });
  const instant = el("input", { type: "text", id: "set-to", placeholder: "2026-11-01T12:00:00Z", size: "22", "aria-label": "Instant to set the clock to" });
  const rate = el("select", { id: "play-rate", "aria-label": "Play rate" }, ["1", "10", "60", "600"].map((r) => el("option", { value: r, selected: r === "60" }, `${r}×`)));
  const play = el("button", { type: "button", id: "play", onclick: () => togglePlay() }, "Play");

  const nowLocal = el("span", { class: "muted", id: "now-local" });
  const conditions = el("span", { class: "mono", id: "conditions" }, "normal");
  const slowBy = el("input", { type: "text", id: "slow-by", value: "2s", size: "6", "aria-label": "Delay to add to every answer" });
  const faultChoice = el("select", { id: "network-fault", "aria-label": "Transport error for every request" }, faults.map((fault) => el("option", { value: fault }, fault)));
  const journalOpen = new Set();
  let newestHistoryStep = 0;
  const presenterKey = "scenariod-dashboard-presenter";

  /** The clock as the API gives it (UTC) and, beside it, in the scenario's time zone when it names one. */
  function showNow(instant) {
    now.textContent = instant;
    const zone = scenario && scenario.clockTimeZone;
    nowLocal.textContent = zone ? `${new Intl.DateTimeFormat(undefined, { timeZone: zone, dateStyle: "medium", timeStyle: "medium" }).format(new Date(instant))} (${zone})` : "";
  }
  const advance = async (by) => { const answer = await attempt(() => api("POST", `${base}/clock/advance`, { by })); if (answer) showNow(answer.now); };
  const setConditions = async (body) => { const answer = await attempt(() => api("PUT", `${base}/network/conditions`, body)); if (answer) showConditions(answer); };
  function showConditions(answer) {
    const parts = [answer.offline ? "offline" : null, answer.fault ? `every request fails: ${answer.fault}` : null, answer.delay ? `every answer ${answer.delay} later` : null].filter(Boolean);
    conditions.textContent = parts.length ? parts.join(", ") : "normal";
  }
  /** A route of the scenario answering as written again (`{extends}` alone), with a fault, or with another status. */
  function routeForm(route) {
    const choice = el("select", { "aria-label": `How route ${route.name} answers` },
      el("option", { value: "" }, "as written"), faults.map((fault) => el("option", { value: `fault ${fault}` }, `fault: ${fault}`)),
      ["500", "503"].map((status) => el("option", { value: `status ${status}` }, `status ${status}`)));
    return el("form", { class: "row", "data-route": route.name, onsubmit: (event) => {
      event.preventDefault();
      const [kind, value] = choice.value.split(" ");
      const body = { extends: route.name };
      if (kind === "fault") body.response = { fault: value };
      if (kind === "status") body.response = { status: Number(value) };
      attempt(() => api("PUT", `${base}/routes/${encode(route.name)}`, body));
    } }, el("span", { class: "mono" }, route.name), choice, el("button", { type: "submit" }, "Apply"));
  }
  const rewindOne = () => { if (newestHistoryStep > 0) attempt(() => api("POST", `${base}/rewind`, { step: newestHistoryStep - 1 })); };
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
    const keys = { n: () => advance(duration.value.trim()), ArrowRight: () => advance(duration.value.trim()), b: rewindOne, ArrowLeft: rewindOne,
      r: reset, p: () => togglePresenter(), " ": () => togglePlay() };
    const work = keys[event.key];
    if (!work) return;
    event.preventDefault();
    work();
  }
  document.addEventListener("keydown", onKey);

  function togglePlay() {
    if (playing) {
      clearInterval(playing.timer);
      playing = null;
      play.textContent = "Play";
      return;
    }
    // Every quarter second of wall time moves the clock by rate × 250 ms; a tick is skipped while one is in flight.
    playing = { busy: false, timer: setInterval(async () => {
      if (!playing || playing.busy) return;
      playing.busy = true;
      // Marked as a play's move, so the history keeps the whole play as one step.
      try { await api("POST", `${base}/clock/advance`, { by: `${Number(rate.value) * 250}ms`, play: true }); } catch (error) { if (!(error instanceof Outage)) showError(error); togglePlay(); }
      if (playing) playing.busy = false;
    }, 250) };
    play.textContent = "Pause";
  }

  main.replaceChildren(
    title,
    held,
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
      el("div", {},
        el("section", { class: "panel", "aria-labelledby": "state-title" }, el("h2", { id: "state-title" }, "State"), stateTree),
        // For a presenter too (not a developer's panel): the rest of a stalled reply is pushed from here.
        el("section", { class: "panel", "aria-labelledby": "streams-title", id: "streams-panel" }, el("h2", { id: "streams-title" }, "Streams"), streamsList),
        el("section", { class: "panel developer", "aria-labelledby": "journal-title" }, el("h2", { id: "journal-title" }, "Journal"),
          el("table", { id: "journal" }, el("thead", {}, el("tr", {}, ["#", "Time", "Request", "Route", "Answer"].map((t) => el("th", {}, t)))), journalBody))),
      el("div", {},
        el("section", { class: "panel", "aria-labelledby": "clock-title" }, el("h2", { id: "clock-title" }, "Clock"),
          el("div", { class: "row" }, now, nowLocal),
          el("div", { class: "row" },
            el("button", { type: "button", onclick: () => advance("1s") }, "+1 s"),
            el("button", { type: "button", onclick: () => advance("1m") }, "+1 min"),
            el("button", { type: "button", onclick: () => advance("15m") }, "+15 min")),
          el("form", { class: "row", id: "advance", onsubmit: (event) => { event.preventDefault(); advance(duration.value.trim()); } },
            duration, el("button", { type: "submit" }, "Advance")),
          el("form", { class: "row", id: "set-clock", onsubmit: async (event) => {
            event.preventDefault();
            const answer = await attempt(() => api("PUT", `${base}/clock`, { now: instant.value.trim() }));
            if (answer) showNow(answer.now);
          } }, instant, el("button", { type: "submit" }, "Set")),
          el("div", { class: "row" }, rate, play)),
        el("section", { class: "panel", "aria-labelledby": "network-title", id: "network" }, el("h2", { id: "network-title" }, "Network"),
          el("div", { class: "row" }, "Now: ", conditions),
          el("div", { class: "row" },
            el("button", { type: "button", id: "network-normal", onclick: () => setConditions({}) }, "Normal"),
            el("button", { type: "button", id: "network-offline", onclick: () => setConditions({ offline: true }) }, "Offline")),
          el("form", { class: "row", id: "network-slow", onsubmit: (event) => { event.preventDefault(); setConditions({ delay: slowBy.value.trim() }); } },
            slowBy, el("button", { type: "submit" }, "Slow down every answer")),
          el("form", { class: "row", id: "network-fail", onsubmit: (event) => { event.preventDefault(); setConditions({ fault: faultChoice.value }); } },
            faultChoice, el("button", { type: "submit" }, "Fail every request")),
          scenario && scenario.routes.length ? el("details", { class: "routes" }, el("summary", {}, "One route at a time (until a reset)"), scenario.routes.map(routeForm)) : null),
        el("section", { class: "panel", "aria-labelledby": "actions-title" }, el("h2", { id: "actions-title" }, "Actions"),
          model.actions.map((action) => actionForm(action))),
        el("section", { class: "panel developer", "aria-labelledby": "kv-title" }, el("h2", { id: "kv-title" }, "Key-value state"), keyValues),
        el("section", { class: "panel developer", "aria-labelledby": "history-title" }, el("h2", { id: "history-title" }, "History"), historyList))),
  );

  togglePresenter(sessionStorage.getItem(presenterKey) === "1");

  function actionForm(action) {
    const inputs = action.arguments.map((argument) => {
      const attributes = { name: argument.name, "aria-label": `${action.name} ${argument.name}`, required: argument.required && argument.type !== "boolean" };
      if (argument.type === "boolean") return [argument, el("input", { ...attributes, type: "checkbox" })];
      if (argument.type === "integer" || argument.type === "number") return [argument, el("input", { ...attributes, type: "number", step: argument.type === "integer" ? "1" : "any" })];
      if (argument.type === "string") return [argument, el("input", { ...attributes, type: "text" })];
      return [argument, el("input", { ...attributes, type: "text", placeholder: "JSON" })];
    });
    return el("form", { class: "action", "data-action": action.name, onsubmit: async (event) => {
      event.preventDefault();
      const body = {};
      for (const [argument, input] of inputs) {
        if (argument.type === "boolean") body[argument.name] = input.checked;
        else if (input.value === "" && !argument.required) continue;
        else if (argument.type === "integer" || argument.type === "number") body[argument.name] = Number(input.value);
        else if (argument.type === "string") body[argument.name] = input.value;
        else {
          try { body[argument.name] = JSON.parse(input.value); } catch { showError(new Error(`${argument.name} must be JSON`)); return; }
        }
      }
      await attempt(() => api("POST", `${base}/actions/${encode(action.name)}`, body));
    } },
    el("div", { class: "row" },
      el("strong", {}, action.name),
      inputs.map(([argument, input]) => el("label", {}, argument.name, input)),
      el("button", { type: "submit", class: "primary" }, "Perform")));
  }

  // MARK: Rendering

  function showState(next) {
    const before = stepStart ?? state;
    state = next;
    stateTree.replaceChildren(...treeItems(next, before, before !== null));
  }

  /**
   * The value as nested lists; a leaf that differs from `previous` (or is new) is marked changed. The items of a
   * list that carry an identity (`id`, `key`, `url` or `name`, distinct in every item) are compared with the item of
   * the same identity, not the same position, so an item inserted at the top marks itself, not every item below.
   */
  function treeItems(value, previous, compare) {
    if (value === null || typeof value !== "object") return [leaf(value, previous, compare)];
    const identity = Array.isArray(value) ? identityOf(value) : null;
    const earlier = identity && Array.isArray(previous) && identityOf(previous) === identity
      ? new Map(previous.map((item) => [json(item[identity]), item])) : null;
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    return entries.map(([key, child]) => {
      const before = earlier ? earlier.get(json(child[identity])) : previous && typeof previous === "object" ? previous[key] : undefined;
      const isContainer = child !== null && typeof child === "object";
      return el("li", { "data-key": key, "data-id": identity ? String(child[identity]) : undefined },
        el("span", { class: "key" }, Array.isArray(value) ? `[${key}]` : key), ": ",
        // A new container is new all through: every leaf in it is marked.
        isContainer ? el("ul", {}, treeItems(child, before, compare)) : leaf(child, before, compare));
    });
  }

  /** The field that names each item of `list`, when every item is an object with a distinct scalar in it. */
  function identityOf(list) {
    if (list.length === 0 || !list.every((item) => item !== null && typeof item === "object" && !Array.isArray(item))) return null;
    return ["id", "key", "url", "name"].find((field) => {
      const values = list.map((item) => item[field]);
      return values.every((v) => v !== null && v !== undefined && typeof v !== "object") && new Set(values.map(json)).size === list.length;
    }) || null;
  }

  function leaf(value, previous, compare) {
    const kind = value === null ? "null" : typeof value;
    const changed = compare && json(value) !== json(previous);
    return el("span", { class: `${kind}${changed ? " changed" : ""}` }, kind === "string" ? json(value) : String(value));
  }

  /** A journal row; its first cell opens the entry to its request, answer, route and near misses. */
  function showEntry(entry) {
    journal.set(entry.sequence, entry);
    const answer = entry.pending ? el("span", { class: "status-pending" }, `pending (until ${entry.deliversAt})`)
      : entry.status !== undefined ? el("span", { class: entry.status < 400 ? "status-ok" : "status-bad" }, String(entry.status))
      : el("span", { class: "status-bad" }, entry.fault || entry.outcome || "");
    const delay = entry.deliversAt ? ` · after ${delayText(Date.parse(entry.deliversAt) - Date.parse(entry.time))}` : "";
    const misses = entry.nearMisses && entry.nearMisses.length
      ? el("ul", { class: "misses" }, entry.nearMisses.map((miss) => el("li", {}, nearMissText(miss))))
      : null;
    const open = journalOpen.has(entry.sequence);
    const toggle = el("button", { type: "button", class: "disclose", "aria-expanded": String(open), "aria-label": `Details of request ${entry.sequence}`,
      onclick: () => {
        if (journalOpen.has(entry.sequence)) journalOpen.delete(entry.sequence); else journalOpen.add(entry.sequence);
        showEntry(journal.get(entry.sequence));
      } }, open ? "▾" : "▸");
    const row = el("tr", { "data-sequence": entry.sequence },
      el("td", {}, toggle, " ", entry.sequence),
      el("td", { class: "mono" }, entry.time),
      el("td", { class: "wrap" }, el("span", { class: "mono" }, `${entry.method} `, breakable(entry.url)), misses),
      el("td", {}, entry.route || (entry.live ? "live" : entry.service || "no route"), entry.override ? " (override)" : ""),
      el("td", { class: "answer" }, answer, entry.pending ? "" : delay, entry.condition ? ` · ${entry.condition}` : ""));
    const rows = [row, open ? el("tr", { class: "entry-details", "data-details": entry.sequence }, el("td", { colspan: "5" }, entryDetails(entry))) : null].filter(Boolean);
    const existing = journalBody.querySelector(`tr[data-sequence="${entry.sequence}"]`);
    const details = journalBody.querySelector(`tr[data-details="${entry.sequence}"]`);
    if (details) details.remove();
    if (existing) existing.replaceWith(...rows); else journalBody.append(...rows);
  }

  const nearMissText = (miss) => `route ${miss.route} differs in ${miss.field}: expected ${miss.expected}, got ${miss.actual}`;

  /** What the journal knows of one request: as sent, what it got, the route that answered and why others did not. */
  function entryDetails(entry) {
    const route = entry.route && scenario ? scenario.routes.find((candidate) => candidate.name === entry.route) : null;
    let body = entry.body || "";
    try { body = body ? JSON.stringify(JSON.parse(body), null, 2) : ""; } catch { /* not JSON: shown as sent */ }
    const got = entry.pending ? `pending: ${entry.status !== undefined ? entry.status : `fault ${entry.fault}`} at ${entry.deliversAt}`
      : entry.status !== undefined ? `status ${entry.status}` : entry.fault ? `fault ${entry.fault}` : entry.outcome || "no answer";
    return el("div", { class: "details" },
      el("h3", {}, "Request"),
      el("pre", { class: "mono" }, `${entry.method} `, breakable(entry.url), [``, ...entry.headers].join("\n") + (body ? `\n\n${body}` : "")),
      entry.sentBody ? [el("h3", {}, "Body as sent"), el("pre", { class: "mono" }, entry.sentBody)] : null,
      el("h3", {}, "Answer"),
      el("p", {}, got, entry.deliversAt && !entry.pending ? `, delivered at ${entry.deliversAt}` : "", entry.condition ? ` (network: ${entry.condition})` : ""),
      el("h3", {}, "Route"),
      el("p", {}, entry.route ? `${entry.route}${entry.override ? ", a route given to this session" : ""}` : entry.live ? "none: the live network answered" : "none matched",
        // A route given to the session answers in place of the scenario's: the scenario's answers are not what it got.
        entry.override ? el("span", { class: "muted" }, " — in place of the scenario's, until a reset")
          : route ? el("span", { class: "muted" }, ` — ${route.method || "any method"} `, breakable(route.url || "any URL"), `, answers ${route.answers.map(answerSummary).join(", then ") || "live"}`) : ""),
      entry.nearMisses && entry.nearMisses.length ? [el("h3", {}, "Why no route matched"), el("ul", { class: "misses" }, entry.nearMisses.map((miss) => el("li", {}, nearMissText(miss))))] : null);
  }

  /** `200`, `503 after 2s`, `fault timeout`, as the API's own summaries read. */
  function answerSummary(answer) {
    return `${answer.status !== undefined ? answer.status : `fault ${answer.fault}`}${answer.delay ? ` after ${answer.delay}` : ""}${answer.after ? ` once ${answer.after} answered` : ""}`;
  }

  /** A delay in milliseconds as scenariod writes durations: 2s, 750ms, 1m30s. */
  function delayText(milliseconds) {
    const parts = [[3600000, "h"], [60000, "m"], [1000, "s"], [1, "ms"]];
    let rest = Math.round(milliseconds), text = "";
    for (const [size, unit] of parts) {
      if (rest >= size) { text += `${Math.floor(rest / size)}${unit}`; rest %= size; }
    }
    return text || "0s";
  }

  async function refreshJournal() {
    const body = await load(() => api("GET", `${base}/journal`));
    if (!body) return;
    journal = new Map();
    journalBody.replaceChildren();
    body.entries.forEach(showEntry);
  }

  /** The open streams as the API lists them, and the last one that ended; a stream that ended leaves the list. */
  async function refreshStreams() {
    const asked = ++streamsAsked;
    const answer = await load(() => api("GET", `${base}/streams`));
    if (!answer || asked <= streamsShown) return;
    streamsShown = asked;
    showStreams(answer.streams);
  }

  function showStreams(open) {
    const numbers = new Set(open.map((stream) => stream.stream));
    for (const [number, item] of streamItems) {
      if (!numbers.has(number)) { item.node.remove(); streamItems.delete(number); }
    }
    // One open again after a rewind is open, not ended.
    if (endedStream && numbers.has(endedStream.stream)) endedStream = null;
    const items = open.map((stream) => {
      const item = streamItems.get(stream.stream) || streamItem(stream);
      streamItems.set(stream.stream, item);
      item.show(stream);
      return item.node;
    });
    if (!endedStream) endedLine = null;
    else if (!endedLine || endedLine.stream !== endedStream) {
      const stream = endedStream;
      endedLine = { stream, node: el("li", { class: "muted", "data-ended": stream.stream },
        `Stream ${stream.stream}${stream.route ? ` (${stream.route})` : ""} ended: ${stream.state}`, stream.fault ? ` (${stream.fault})` : "",
        `, after ${stream.delivered} delivered`, stream.lastChunk ? `, the last read at ${stream.lastChunk.time}` : "") };
    }
    // Entries are updated in place, never rebuilt, so a push being typed keeps its text; the list is put together
    // again only when an entry came or went, and then the field that had the focus gets it back.
    const wanted = [...items, open.length ? null : noStreams, endedLine ? endedLine.node : null].filter(Boolean);
    if (wanted.length !== streamsList.children.length || wanted.some((node, index) => streamsList.children[index] !== node)) {
      const focused = document.activeElement && streamsList.contains(document.activeElement) ? document.activeElement : null;
      streamsList.replaceChildren(...wanted);
      if (focused && focused.isConnected) focused.focus();
    }
  }

  /** An open stream's entry: what it is, how far the Model has read it, its last chunk, and a presenter's controls. */
  function streamItem(first) {
    const number = first.stream;
    const what = el("div", { class: "row" });
    const progress = el("div", { class: "row", "data-field": "progress" });
    const last = el("pre", { class: "mono chunk", "data-field": "last-chunk" });
    const lastTitle = el("div", { class: "muted", "data-field": "last-chunk-title" });
    const eventName = el("input", { type: "text", name: "event", size: "8", placeholder: "event", "aria-label": `Event name to push into stream ${number} (optional)` });
    const data = el("input", { type: "text", name: "data", placeholder: "data", "aria-label": `Data to push into stream ${number}` });
    let kind = first.kind;
    const end = (body) => attempt(() => api("POST", `${base}/streams/${number}/close`, body));
    const form = el("form", { class: "row", "data-push": number, onsubmit: async (event) => {
      event.preventDefault();
      // A server-sent event (data, with an event name if given), or for any other streamed body the text as typed.
      const body = kind === "events" ? { data: data.value, ...(eventName.value.trim() ? { event: eventName.value.trim() } : {}) } : { text: data.value };
      // What was pushed is in the stream now: its field is cleared for the next (the event name is kept).
      if (await attempt(() => api("POST", `${base}/streams/${number}/push`, body))) data.value = "";
    } },
    eventName, data,
    el("button", { type: "submit", class: "primary" }, "Send"),
    el("button", { type: "button", "data-close": number, onclick: () => end({}) }, "Close"),
    el("button", { type: "button", "data-drop": number, title: "Break the stream off with connectionReset", onclick: () => end({ fault: "connectionReset" }) }, "Drop"));
    const node = el("li", { class: "stream", "data-stream": number }, what, progress, lastTitle, last, form);
    function show(stream) {
      kind = stream.kind;
      // Only a server-sent event has an event name; any other streamed body takes the text as it is.
      eventName.hidden = kind !== "events";
      data.placeholder = kind === "events" ? "data" : "text";
      what.replaceChildren(
        el("strong", { class: "mono", "data-field": "route" }, stream.route || "no route"),
        el("span", { class: "mono", "data-field": "request" }, `${stream.method} ${stream.url}`),
        el("span", { class: "badge", "data-field": "kind" }, stream.kind),
        el("span", { class: "muted" }, `stream ${stream.stream}${stream.status !== undefined ? `, status ${stream.status}` : ""}, opened ${stream.openedAt}`));
      progress.replaceChildren(
        el("span", { "data-field": "counts" }, `delivered ${stream.delivered}, pending ${stream.pending}`),
        el("span", { class: "muted", "data-field": "next" }, stream.nextAt ? `next due at ${stream.nextAt}` : "nothing scripted is due"));
      lastTitle.textContent = stream.lastChunk ? `Last chunk, read at ${stream.lastChunk.time}${stream.lastChunk.pushed ? " (pushed)" : ""}:` : "No chunk read yet.";
      last.textContent = stream.lastChunk ? shorten(stream.lastChunk.text.replace(/\n+$/, ""), 240) : "";
      last.hidden = !stream.lastChunk;
    }
    return { node, show };
  }

  const shorten = (text, length) => text.length > length ? `${text.slice(0, length - 1)}…` : text;

  async function refreshConditions() {
    const answer = await load(() => api("GET", `${base}/network/conditions`));
    if (answer) showConditions(answer);
  }

  async function refreshHistory() {
    const history = await load(() => api("GET", `${base}/history`));
    if (!history) return undefined;
    const last = history.steps.length - 1;
    newestHistoryStep = last;
    historyList.replaceChildren(
      ...history.steps.map((step) => el("li", { "data-step": step.step, class: step.step === last ? "current" : "" },
        el("span", {}, el("span", { class: "mono" }, `${step.step}. ${step.time}`), " ", step.summary),
        step.step === last ? el("span", { class: "muted" }, "now") :
          el("button", { type: "button", disabled: Boolean(history.notRewindable), title: history.notRewindable || "",
            onclick: () => attempt(() => api("POST", `${base}/rewind`, { step: step.step })) }, "Go back to here"))),
      ...(history.notRewindable ? [el("li", { class: "muted" }, `Cannot go back: ${history.notRewindable}.`)] : []));
    return history;
  }

  async function refreshKeyValues() {
    const listing = await load(() => api("GET", `${base}/kv`));
    if (!listing) return;
    const rows = await Promise.all(listing.keys.map(async (key) => [key, await load(() => api("GET", `${base}/kv/${encode(key)}`))]));
    // What someone is typing survives a refresh another change caused: an editor whose text is not what was loaded
    // into it keeps that text, and so do the new key's fields.
    const drafts = new Map([...keyValues.querySelectorAll("textarea[data-key]")]
      .filter((editor) => editor.value !== editor.dataset.loaded).map((editor) => [editor.dataset.key, editor.value]));
    const newKey = el("input", { type: "text", "aria-label": "New key", placeholder: "new key", id: "kv-new-key" });
    const newValue = el("textarea", { "aria-label": "New key's value (JSON)", placeholder: "JSON value", id: "kv-new-value" });
    newKey.value = keyValues.querySelector("#kv-new-key")?.value || "";
    newValue.value = keyValues.querySelector("#kv-new-value")?.value || "";
    const focused = document.activeElement && keyValues.contains(document.activeElement) ? (document.activeElement.dataset.key || document.activeElement.id) : null;
    keyValues.replaceChildren(
      ...rows.map(([key, value]) => {
        const editor = el("textarea", { "aria-label": `Value of ${key} (JSON)`, "data-key": key });
        editor.dataset.loaded = JSON.stringify(value, null, 1);
        editor.value = drafts.has(key) ? drafts.get(key) : editor.dataset.loaded;
        return el("form", { class: "action", "data-kv": key, onsubmit: async (event) => {
          event.preventDefault();
          let parsed;
          try { parsed = JSON.parse(editor.value); } catch { showError(new Error(`the value of ${key} is not JSON`)); return; }
          // The answer is the value stored, which may be false, 0 or null: only undefined means refused. Then what
          // was typed is stored, no longer a draft to keep, in whichever editor shows the key by now.
          if (await attempt(() => api("PUT", `${base}/kv/${encode(key)}`, parsed)) !== undefined) {
            const shown = keyValues.querySelector(`textarea[data-key="${CSS.escape(key)}"]`);
            if (shown) shown.dataset.loaded = shown.value;
          }
        } },
        el("div", { class: "row" }, el("strong", { class: "mono" }, key),
          el("button", { type: "submit" }, "Save"),
          el("button", { type: "button", onclick: () => attempt(() => api("DELETE", `${base}/kv/${encode(key)}`)) }, "Delete")),
        editor);
      }),
      el("form", { class: "action", onsubmit: async (event) => {
        event.preventDefault();
        if (!newKey.value.trim()) { showError(new Error("the new key has no name; type one beside Add")); newKey.focus(); return; }
        let parsed;
        try { parsed = JSON.parse(newValue.value); } catch { showError(new Error("the new value is not JSON")); return; }
        if (await attempt(() => api("PUT", `${base}/kv/${encode(newKey.value.trim())}`, parsed)) !== undefined) {
          // The panel may have been redrawn already, with what was typed carried over: clear the fields shown now.
          keyValues.querySelector("#kv-new-key").value = keyValues.querySelector("#kv-new-value").value = "";
        }
      } }, el("div", { class: "row" }, newKey, el("button", { type: "submit" }, "Add")), newValue));
    if (focused) (keyValues.querySelector(`textarea[data-key="${CSS.escape(focused)}"]`) || keyValues.querySelector(`#${focused}`))?.focus();
  }

  async function refreshAll() {
    const [current, clock] = await Promise.all([load(() => api("GET", `${base}/state`)), load(() => api("GET", `${base}/clock`))]);
    if (current !== undefined) showState(current);
    if (clock) showNow(clock.now);
    await Promise.all([refreshJournal(), refreshHistory(), refreshKeyValues(), refreshConditions(), refreshStreams()]);
  }

  // MARK: Live

  await refreshAll();
  // Every change anyone makes to the session (this tab, another, a test, scenarioctl) ends with historyChanged: then
  // the history, the key-value state and, after a rewind, reset or clear, the whole journal are read again. This
  // tab's own changes are shown the same way, so it reads nothing twice.
  let newestStep = Infinity; // so the first event reads the journal again, in case it changed while the page loaded
  stepStart = state;
  connection.onBack = null;
  const events = eventStream(`${base}/events`, {
    stateChanged: (event) => showState(JSON.parse(event.data)),
    requestJournaled: (event) => showEntry(JSON.parse(event.data)),
    clockMoved: (event) => { showNow(JSON.parse(event.data).now); refreshStreams(); },
    // A stream delivered a chunk or ended: the one that ended is kept to show, the list is read again.
    streamChanged: (event) => {
      const stream = JSON.parse(event.data);
      if (stream.state !== "open") endedStream = stream;
      refreshStreams();
    },
    // Work the session could not see or order: what is shown next is not the scenario's alone, so say so and stay.
    modelEscaped: (event) => {
      const escape = JSON.parse(event.data);
      // The remedy is written to follow a colon in the API's messages; here it starts a sentence.
      const remedy = escape.remedy.charAt(0).toUpperCase() + escape.remedy.slice(1);
      showError(new Error(`The Model escaped its session during ${escape.during || "its run"}: ${escape.detail}. ${remedy}.`));
      refreshHeld();
    },
    historyChanged: async (event) => {
      stepStart = state;
      const newest = JSON.parse(event.data).newestStep;
      const history = await refreshHistory();
      const kind = history && history.steps.length ? history.steps[history.steps.length - 1].kind : "";
      if (newest < newestStep || kind === "reset" || kind === "clearJournal") await refreshJournal();
      // A rewind or reset rebuilt the session: a stream that ended before may never have been.
      if (newest < newestStep || kind === "reset") endedStream = null;
      newestStep = newest;
      await Promise.all([refreshKeyValues(), refreshConditions(), refreshStreams(), refreshHeld()]);
    },
    // Missed events no longer kept (or a daemon that restarted): read everything again.
    gap: () => refreshAll(),
  }, (error) => {
    if (error.code !== "unknownSession") { showError(new Error(`The event stream of session ${id} ended: ${error.message}`)); return; }
    leavePage();
    leavePage = () => {};
    sessionGone(id, session.scenario);
  });
  leavePage = () => { events.close(); if (playing) togglePlay(); document.removeEventListener("keydown", onKey);
    // Only a session page has presenter mode; the tab remembers it for the next one.
    document.body.classList.remove("presenter"); };
}

window.addEventListener("hashchange", route);
attempt(async () => {
  const version = await api("GET", "/v1/version");
  document.getElementById("daemon").textContent = `${version.daemon} ${version.version}`;
});
route();
