// The lists: the daemon's scenarios, and its open sessions.

import { api, attempt } from "./api.js";
import { el, encode, heldText, heldTitle } from "./dom.js";
import { leavePage, whenLeaving } from "./leaving.js";

const main = document.getElementById("main");

export async function scenariosPage() {
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

export async function startSession(scenario) {
  const session = await attempt(() => api("POST", "/v1/sessions", { scenario }));
  if (session) location.hash = `#/session/${encode(session.id)}`;
}

/** A session that is not there (deleted, or a daemon that restarted without it): say so, with ways back. */
export function sessionGone(id, scenario) {
  main.replaceChildren(
    el("h1", {}, "No session ", el("span", { class: "mono" }, id)),
    el("div", { class: "panel", id: "gone" },
      el("p", {}, `There is no session ${id}: it was deleted, or the daemon restarted without it.`),
      el("div", { class: "row" },
        el("a", { href: "#/sessions" }, "Open sessions"),
        el("a", { href: "#/scenarios" }, "Scenarios"),
        scenario ? el("button", { type: "button", class: "primary", onclick: () => startSession(scenario) }, `Start a new session of ${scenario}`) : null)));
}


export async function sessionsPage() {
  leavePage();
  // Left while the list is read, or later: nothing is drawn, and the timer stops. (A redraw the timer started could
  // otherwise land after the next page was drawn, and draw the list over it.)
  let left = false;
  let timer = null;
  whenLeaving(() => { left = true; clearInterval(timer); });
  const sessions = await attempt(() => api("GET", "/v1/sessions"));
  if (!sessions || left) return;
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
  timer = setInterval(async () => {
    const latest = await api("GET", "/v1/sessions").catch(() => null);
    if (!left && latest && JSON.stringify(latest) !== shown) sessionsPage();
  }, 2000);
}
