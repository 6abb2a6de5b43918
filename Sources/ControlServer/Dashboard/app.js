// The scenariod dashboard: plain JavaScript modules, no build step, every request a documented control API
// operation on the same origin (the daemon's socket, or `scenarioctl dashboard`'s bridge to it). Live changes come
// from the session's event stream, never from polling.

const main = document.getElementById("main");
const banner = document.getElementById("banner");
const bannerText = document.getElementById("banner-text");
document.getElementById("banner-close").addEventListener("click", () => { banner.hidden = true; });

/** Calls the control API; a refusal throws an Error with the API's message and code. */
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const message = data && data.message ? `${data.message} (${data.code}, ${method} ${path})` : `${method} ${path} answered ${response.status}: ${text}`;
    throw new Error(message);
  }
  return data;
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
    if (clearsBanner) banner.hidden = true;
    return await work();
  } catch (error) {
    showError(error);
    return undefined;
  }
}

/** A DOM element: el("button", {type: "button", onclick: f}, "text", child…). */
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
const encode = (text) => encodeURIComponent(text);
const json = (value) => JSON.stringify(value);

// MARK: Pages

let leavePage = () => {};

async function route() {
  leavePage();
  leavePage = () => {};
  const [, page, id] = location.hash.match(/^#\/([^/]*)\/?(.*)$/) || [null, "scenarios", ""];
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.page === page) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  if (page === "session" && id) await sessionPage(decodeURIComponent(id));
  else if (page === "sessions") await sessionsPage();
  else await scenariosPage();
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

async function sessionsPage() {
  const sessions = await attempt(() => api("GET", "/v1/sessions"));
  if (!sessions) return;
  const reload = () => sessionsPage();
  main.replaceChildren(
    el("h1", {}, "Sessions"),
    el("div", { class: "panel" }, sessions.length === 0 ? el("p", { class: "muted" }, "No open sessions. Start one from a scenario.") :
      el("table", { id: "sessions" },
        el("thead", {}, el("tr", {}, ["Session", "Scenario", "Virtual now", "Requests", "Unmatched", ""].map((title) => el("th", {}, title)))),
        el("tbody", {}, sessions.map((session) => el("tr", { "data-session": session.id },
          el("td", {}, el("a", { href: `#/session/${encode(session.id)}` }, session.id)),
          el("td", { class: "mono" }, session.scenario),
          el("td", { class: "mono" }, session.now),
          el("td", {}, session.requests),
          el("td", {}, session.unmatchedRequests),
          el("td", {}, el("div", { class: "row" },
            el("button", { type: "button", onclick: async () => { if (await attempt(() => api("POST", `/v1/sessions/${encode(session.id)}/reset`))) reload(); } }, "Reset"),
            el("button", { type: "button", onclick: async () => { if (await attempt(() => api("DELETE", `/v1/sessions/${encode(session.id)}`).then(() => true))) reload(); } }, "Delete"))),
        ))),
      )),
  );
}

// MARK: A session

async function sessionPage(id) {
  const base = `/v1/sessions/${encode(id)}`;
  const [session, models] = await Promise.all([attempt(() => api("GET", base)), attempt(() => api("GET", "/v1/models"))]);
  if (!session || !models) return;
  const model = models.find((candidate) => candidate.name === session.model) || { actions: [], keys: [] };
  let state = null;
  // The state when the last step ended: what the next step changed is measured from it, not from a state the
  // step passed through (a rewind rebuilds the session from its start before it replays).
  let stepStart = null;
  let journal = new Map();
  let playing = null;

  const title = el("h1", {}, "Session ", el("span", { class: "mono" }, id), " ", el("span", { class: "muted" }, `of ${session.scenario} (${session.model})`));
  const now = el("span", { class: "now", id: "now" }, session.now);
  const stateTree = el("ul", { class: "tree", id: "state" });
  const journalBody = el("tbody", {});
  const historyList = el("ol", { class: "history", id: "history" });
  const keyValues = el("div", { id: "kv" });
  const saveName = el("input", { type: "text", id: "save-name", placeholder: "new-scenario-name", "aria-label": "Name of the new scenario", pattern: "[A-Za-z0-9][A-Za-z0-9._\\-]{0,63}" });
  const duration = el("input", { type: "text", id: "advance-by", value: "2s", size: "7", "aria-label": "Duration to advance by" });
  const instant = el("input", { type: "text", id: "set-to", placeholder: "2026-11-01T12:00:00Z", size: "22", "aria-label": "Instant to set the clock to" });
  const rate = el("select", { id: "play-rate", "aria-label": "Play rate" }, ["1", "10", "60", "600"].map((r) => el("option", { value: r, selected: r === "60" }, `${r}×`)));
  const play = el("button", { type: "button", id: "play", onclick: () => togglePlay() }, "Play");

  const advance = async (by) => { const answer = await attempt(() => api("POST", `${base}/clock/advance`, { by })); if (answer) now.textContent = answer.now; };

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
      try { await api("POST", `${base}/clock/advance`, { by: `${Number(rate.value) * 250}ms`, play: true }); } catch (error) { showError(error); togglePlay(); }
      if (playing) playing.busy = false;
    }, 250) };
    play.textContent = "Pause";
  }

  main.replaceChildren(
    title,
    el("div", { class: "row" },
      // What a change did arrives through the event stream, as it does for a change made anywhere else.
      el("button", { type: "button", onclick: () => attempt(() => api("POST", `${base}/reset`)) }, "Reset"),
      el("button", { type: "button", onclick: async () => { if (await attempt(() => api("DELETE", base).then(() => true))) location.hash = "#/sessions"; } }, "Delete"),
      el("form", { class: "row", id: "save", onsubmit: async (event) => {
        event.preventDefault();
        const saved = await attempt(() => api("POST", `${base}/save`, { name: saveName.value.trim() }));
        if (saved) {
          const started = await attempt(() => api("POST", "/v1/sessions", { scenario: saved.scenario }));
          if (started) location.hash = `#/session/${encode(started.id)}`;
        }
      } }, saveName, el("button", { type: "submit" }, "Save as scenario"))),
    el("div", { class: "grid" },
      el("div", {},
        el("section", { class: "panel", "aria-labelledby": "state-title" }, el("h2", { id: "state-title" }, "State"), stateTree),
        el("section", { class: "panel", "aria-labelledby": "journal-title" }, el("h2", { id: "journal-title" }, "Journal"),
          el("table", { id: "journal" }, el("thead", {}, el("tr", {}, ["#", "Time", "Request", "Route", "Answer"].map((t) => el("th", {}, t)))), journalBody))),
      el("div", {},
        el("section", { class: "panel", "aria-labelledby": "clock-title" }, el("h2", { id: "clock-title" }, "Clock"),
          el("div", { class: "row" }, now),
          el("div", { class: "row" },
            el("button", { type: "button", onclick: () => advance("1s") }, "+1 s"),
            el("button", { type: "button", onclick: () => advance("1m") }, "+1 min"),
            el("button", { type: "button", onclick: () => advance("15m") }, "+15 min")),
          el("form", { class: "row", id: "advance", onsubmit: (event) => { event.preventDefault(); advance(duration.value.trim()); } },
            duration, el("button", { type: "submit" }, "Advance")),
          el("form", { class: "row", id: "set-clock", onsubmit: async (event) => {
            event.preventDefault();
            const answer = await attempt(() => api("PUT", `${base}/clock`, { now: instant.value.trim() }));
            if (answer) now.textContent = answer.now;
          } }, instant, el("button", { type: "submit" }, "Set")),
          el("div", { class: "row" }, rate, play)),
        el("section", { class: "panel", "aria-labelledby": "actions-title" }, el("h2", { id: "actions-title" }, "Actions"),
          model.actions.map((action) => actionForm(action))),
        el("section", { class: "panel", "aria-labelledby": "kv-title" }, el("h2", { id: "kv-title" }, "Key-value state"), keyValues),
        el("section", { class: "panel", "aria-labelledby": "history-title" }, el("h2", { id: "history-title" }, "History"), historyList))),
  );

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

  /** The value as nested lists; a leaf that differs from `previous` (or is new) is marked changed. */
  function treeItems(value, previous, compare) {
    if (value === null || typeof value !== "object") return [leaf(value, previous, compare)];
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    return entries.map(([key, child]) => {
      const before = previous && typeof previous === "object" ? previous[key] : undefined;
      const isContainer = child !== null && typeof child === "object";
      return el("li", { "data-key": key },
        el("span", { class: "key" }, Array.isArray(value) ? `[${key}]` : key), ": ",
        isContainer ? el("ul", {}, treeItems(child, before, compare && before !== undefined)) : leaf(child, before, compare));
    });
  }

  function leaf(value, previous, compare) {
    const kind = value === null ? "null" : typeof value;
    const changed = compare && json(value) !== json(previous);
    return el("span", { class: `${kind}${changed ? " changed" : ""}` }, kind === "string" ? json(value) : String(value));
  }

  function showEntry(entry) {
    journal.set(entry.sequence, entry);
    const answer = entry.pending ? el("span", { class: "status-pending" }, `pending (until ${entry.deliversAt})`)
      : entry.status !== undefined ? el("span", { class: entry.status < 400 ? "status-ok" : "status-bad" }, String(entry.status))
      : el("span", { class: "status-bad" }, entry.fault || entry.outcome || "");
    const delay = entry.deliversAt ? ` · after ${delayText(Date.parse(entry.deliversAt) - Date.parse(entry.time))}` : "";
    const misses = entry.nearMisses && entry.nearMisses.length
      ? el("ul", { class: "misses" }, entry.nearMisses.map((miss) => el("li", {}, `route ${miss.route} differs in ${miss.field}: expected ${miss.expected}, got ${miss.actual}`)))
      : null;
    const row = el("tr", { "data-sequence": entry.sequence },
      el("td", {}, entry.sequence),
      el("td", { class: "mono" }, entry.time),
      el("td", { class: "wrap" }, el("span", { class: "mono" }, `${entry.method} ${entry.url}`), misses),
      el("td", {}, entry.route || (entry.live ? "live" : entry.service || "no route"), entry.override ? " (override)" : ""),
      el("td", { class: "answer" }, answer, entry.pending ? "" : delay, entry.condition ? ` · ${entry.condition}` : ""));
    const existing = journalBody.querySelector(`tr[data-sequence="${entry.sequence}"]`);
    if (existing) existing.replaceWith(row); else journalBody.append(row);
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

  async function refreshHistory() {
    const history = await load(() => api("GET", `${base}/history`));
    if (!history) return undefined;
    const last = history.steps.length - 1;
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
    if (clock) now.textContent = clock.now;
    await Promise.all([refreshJournal(), refreshHistory(), refreshKeyValues()]);
  }

  // MARK: Live

  await refreshAll();
  // Every change anyone makes to the session (this tab, another, a test, scenarioctl) ends with historyChanged: then
  // the history, the key-value state and, after a rewind, reset or clear, the whole journal are read again. This
  // tab's own changes are shown the same way, so it reads nothing twice.
  let newestStep = Infinity; // so the first event reads the journal again, in case it changed while the page loaded
  const events = new EventSource(`${base}/events`);
  events.addEventListener("stateChanged", (event) => showState(JSON.parse(event.data)));
  events.addEventListener("requestJournaled", (event) => showEntry(JSON.parse(event.data)));
  events.addEventListener("clockMoved", (event) => { now.textContent = JSON.parse(event.data).now; });
  stepStart = state;
  events.addEventListener("historyChanged", async (event) => {
    stepStart = state;
    const newest = JSON.parse(event.data).newestStep;
    const history = await refreshHistory();
    const kind = history && history.steps.length ? history.steps[history.steps.length - 1].kind : "";
    if (newest < newestStep || kind === "reset" || kind === "clearJournal") await refreshJournal();
    newestStep = newest;
    await refreshKeyValues();
  });
  events.addEventListener("gap", () => refreshAll());
  events.addEventListener("error", () => {
    if (events.readyState === EventSource.CLOSED) showError(new Error(`the event stream of session ${id} ended; the session may have been deleted`));
  });
  leavePage = () => { events.close(); if (playing) togglePlay(); };
}

window.addEventListener("hashchange", route);
attempt(async () => {
  const version = await api("GET", "/v1/version");
  document.getElementById("daemon").textContent = `${version.daemon} ${version.version}`;
});
route();
