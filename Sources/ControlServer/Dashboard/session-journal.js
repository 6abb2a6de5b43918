// A session's Journal panel: every request its Model made, each opening to what was sent, what it got, the route
// that answered and why the others did not.

import { api, load } from "./api.js";
import { breakable, delayText, el } from "./dom.js";

export function journalPanel(base, scenario) {
  const body = el("tbody", {});
  let journal = new Map();
  const open = new Set();

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
    const isOpen = open.has(entry.sequence);
    const toggle = el("button", { type: "button", class: "disclose", "aria-expanded": String(isOpen), "aria-label": `Details of request ${entry.sequence}`,
      onclick: () => {
        if (open.has(entry.sequence)) open.delete(entry.sequence); else open.add(entry.sequence);
        showEntry(journal.get(entry.sequence));
      } }, isOpen ? "▾" : "▸");
    const row = el("tr", { "data-sequence": entry.sequence },
      el("td", {}, toggle, " ", entry.sequence),
      el("td", { class: "mono" }, entry.time),
      el("td", { class: "wrap" }, el("span", { class: "mono" }, `${entry.method} `, breakable(entry.url)),
        entry.outside ? el("span", { class: "muted" }, " sent from outside") : "", misses),
      el("td", {}, entry.route || (entry.live ? "live" : entry.service || "no route"), entry.override ? " (override)" : ""),
      el("td", { class: "answer" }, answer, entry.pending ? "" : delay, entry.condition ? ` · ${entry.condition}` : ""));
    const rows = [row, isOpen ? el("tr", { class: "entry-details", "data-details": entry.sequence }, el("td", { colspan: "5" }, entryDetails(entry))) : null].filter(Boolean);
    const existing = body.querySelector(`tr[data-sequence="${entry.sequence}"]`);
    const details = body.querySelector(`tr[data-details="${entry.sequence}"]`);
    if (details) details.remove();
    if (existing) existing.replaceWith(...rows); else body.append(...rows);
  }

  const nearMissText = (miss) => `route ${miss.route} differs in ${miss.field}: expected ${miss.expected}, got ${miss.actual}`;

  /** What the journal knows of one request: as sent, what it got, the route that answered and why others did not. */
  function entryDetails(entry) {
    const route = entry.route && scenario ? scenario.routes.find((candidate) => candidate.name === entry.route) : null;
    let sent = entry.body || "";
    try { sent = sent ? JSON.stringify(JSON.parse(sent), null, 2) : ""; } catch { /* not JSON: shown as sent */ }
    const got = entry.pending ? `pending: ${entry.status !== undefined ? entry.status : `fault ${entry.fault}`} at ${entry.deliversAt}`
      : entry.status !== undefined ? `status ${entry.status}` : entry.fault ? `fault ${entry.fault}` : entry.outcome || "no answer";
    return el("div", { class: "details" },
      el("h3", {}, entry.outside ? "Request, sent from outside (not by the Model)" : "Request"),
      el("pre", { class: "mono" }, `${entry.method} `, breakable(entry.url), [``, ...entry.headers].join("\n") + (sent ? `\n\n${sent}` : "")),
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

  /** The whole journal, read again. */
  async function refresh() {
    const answer = await load(() => api("GET", `${base}/journal`));
    if (!answer) return;
    journal = new Map();
    body.replaceChildren();
    answer.entries.forEach(showEntry);
  }

  return {
    node: el("section", { class: "panel developer", "aria-labelledby": "journal-title" }, el("h2", { id: "journal-title" }, "Journal"),
      el("table", { id: "journal" }, el("thead", {}, el("tr", {}, ["#", "Time", "Request", "Route", "Answer"].map((t) => el("th", {}, t)))), body)),
    showEntry,
    refresh,
  };
}
