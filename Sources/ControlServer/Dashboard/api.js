// The control API as the page reaches it: this tab's token for the bridge, the daemon's outages, requests, event
// streams, and the banner that says what went wrong. Every request is a documented control API operation on the same
// origin (the daemon's socket, or `scenarioctl dashboard`'s bridge to it).

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
export function sessionInAddress() {
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
export class Outage extends Error {}

/**
 * Whether the daemon answers. While it does not, one banner says so, every control is disabled and nothing is
 * sent (a click is refused, never kept to send later); the page asks every second and, once the daemon answers,
 * enables the controls again and lets whatever waits on `back()` (the event stream) carry on.
 */
export const connection = {
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
    const main = document.getElementById("main");
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
export async function api(method, path, body) {
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
export function eventStream(path, handlers, gone) {
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

export function showError(error) {
  bannerText.textContent = error.message || String(error);
  banner.hidden = false;
}

/**
 * Runs `work`, showing what went wrong in the banner instead of failing silently; undefined when it failed. What a
 * person asked for clears the last error first; a refresh the page makes by itself (`load`) leaves it up to be read.
 */
export async function attempt(work, clearsBanner = true) {
  try {
    if (clearsBanner && !connection.down) banner.hidden = true;
    return await work();
  } catch (error) {
    if (!(error instanceof Outage)) showError(error);
    return undefined;
  }
}

/** Runs `work` as `attempt` does, leaving the banner as it is: for a refresh the page makes by itself. */
export const load = (work) => attempt(work, false);

/** Trades a link in the address, after any trade still under way (the one at load), never beside it: requests wait
 * for the newest. A page calls it before it draws, since opening a printed URL in a tab changes only the fragment. */
export function tradeLinkInAddress() {
  tokenTaken = tokenTaken.then(takeTokenFromAddress);
  return tokenTaken;
}

/** Why a link opened in a working tab opened nothing, once: the page shows it when it has drawn. */
export function takeLinkNotice() {
  const notice = linkNotice;
  linkNotice = null;
  return notice;
}
