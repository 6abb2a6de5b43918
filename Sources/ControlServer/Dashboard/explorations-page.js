// The explorations page: start one on the daemon's engine, watch each one's walks go by, cancel it, read what it
// found. The list is read twice a second while one runs (its walks finish faster than a person reads) and every
// two seconds otherwise; the form is drawn once, so it keeps what is typed in it.

import { api, attempt } from "./api.js";
import { el, encode } from "./dom.js";
import { whenLeaving } from "./leaving.js";

const main = document.getElementById("main");

export async function explorationsPage() {
  const [scenarios, explorations] = await Promise.all([
    attempt(() => api("GET", "/v1/scenarios")),
    attempt(() => api("GET", "/v1/explorations")),
  ]);
  if (!scenarios || !explorations) return;
  const list = el("div", { class: "panel", id: "explorations" });
  const number = (name, value, label) => el("label", {}, label, el("input", { type: "number", name, value: String(value), min: name === "seed" ? "0" : "1", step: "1", required: true }));
  const form = el("form", { id: "explore", onsubmit: async (event) => {
    event.preventDefault();
    const field = (name) => form.elements[name].value;
    const started = await attempt(() => api("POST", "/v1/explorations", {
      scenario: field("scenario"), walks: Number(field("walks")), steps: Number(field("steps")), seed: Number(field("seed")),
    }));
    if (started) await refresh();
  } },
  el("div", { class: "row" },
    el("label", {}, "Scenario", el("select", { name: "scenario" },
      scenarios.filter((scenario) => scenario.valid).map((scenario) => el("option", { value: scenario.name }, scenario.name)))),
    number("walks", 100, "Walks"), number("steps", 20, "Steps"), number("seed", 1, "Seed"),
    el("button", { type: "submit", class: "primary" }, "Explore")));
  main.replaceChildren(
    el("h1", {}, "Explorations"),
    el("div", { class: "panel" }, el("p", { class: "muted" },
      "Seeded walks of the scenario's Model, run on the daemon's engine, every property checked after every step ",
      "(as scenarioctl explore does)."), form),
    list);

  // Rows stay in place while their exploration runs, only their progress changing, so a Cancel button is not
  // replaced under the pointer (or the keyboard's focus) twice a second; a row is drawn again when its status does.
  const rows = new Map();
  let left = false;
  function draw(latest) {
    const ids = new Set(latest.explorations.map((exploration) => exploration.id));
    for (const id of [...rows.keys()]) if (!ids.has(id)) rows.delete(id);
    const drawn = latest.explorations.slice().reverse().map((exploration) => {
      const kept = rows.get(exploration.id);
      const key = `${exploration.status} ${exploration.progress.shrinking}`;
      if (kept && kept.key === key) {
        kept.update(exploration);
        return kept.element;
      }
      const fresh = row(exploration, key);
      rows.set(exploration.id, fresh);
      return fresh.element;
    });
    if (drawn.length === 0) {
      if (!list.querySelector("p.muted")) list.replaceChildren(el("p", { class: "muted" }, "No explorations yet."));
      return;
    }
    let body = list.querySelector("tbody");
    if (!body) {
      body = el("tbody");
      list.replaceChildren(el("table", {},
        el("thead", {}, el("tr", {}, ["Exploration", "Scenario", "Status", "Progress", "Found", ""].map((title) => el("th", {}, title)))),
        body));
    }
    // Appending a row that is already there moves it: the order is newest first, and rows not listed are gone.
    drawn.forEach((element, index) => { if (body.children[index] !== element) body.insertBefore(element, body.children[index] || null); });
    while (body.children.length > drawn.length) body.lastElementChild.remove();
  }
  function row(exploration, key) {
    const running = exploration.status === "running";
    const bar = el("progress", { "aria-label": `${exploration.id} walks done` });
    const counts = el("span");
    const result = el("td", { class: "wrap" });
    const update = (latest) => {
      const { walksDone, walks, steps } = latest.progress;
      bar.max = Math.max(walks, 1);
      bar.value = walksDone;
      counts.textContent = ` ${walksDone}/${walks} walks, ${steps} steps`;
      result.replaceChildren(...[found(latest)].flat());
    };
    update(exploration);
    const element = el("tr", { "data-exploration": exploration.id },
      el("td", { class: "mono" }, exploration.id),
      el("td", { class: "mono" }, exploration.scenario),
      el("td", {}, el("span", { class: `badge ${exploration.status === "finished" && !exploration.report?.failure ? "good" : running ? "" : "bad"}` },
        exploration.progress.shrinking && running ? "shrinking" : exploration.status)),
      el("td", {}, bar, counts),
      result,
      el("td", {}, el("button", { type: "button", onclick: async () => {
        if (await attempt(() => api("DELETE", `/v1/explorations/${encode(exploration.id)}`))) await refresh();
      } }, running ? "Cancel" : "Forget")));
    return { key, element, update };
  }
  function found(exploration) {
    if (exploration.status === "failed") return exploration.error || "";
    const report = exploration.report;
    if (!report) return "";
    const speed = `${report.steps} steps in ${report.seconds.toFixed(2)} s (${Math.round(report.stepsPerSecond)} steps/s)`;
    if (!report.failure) return [el("span", { class: "badge good" }, "every property held"), ` ${speed}`];
    const failure = report.failure;
    return [el("strong", {}, `${failure.property.property} failed`), ` in walk ${failure.walk} after step ${failure.property.step}: ${failure.property.detail}`,
      el("div", { class: "muted" }, `minimal walk: ${failure.steps.length} steps; ${speed}`)];
  }
  async function refresh() {
    const latest = await api("GET", "/v1/explorations").catch(() => null);
    if (!left && latest) draw(latest);
    return latest;
  }
  draw(explorations);
  let timer = null;
  const tick = async () => {
    const latest = await refresh();
    if (left) return;
    const running = (latest || explorations).explorations.some((exploration) => exploration.status === "running");
    timer = setTimeout(tick, running ? 500 : 2000);
  };
  timer = setTimeout(tick, 500);
  whenLeaving(() => { left = true; clearTimeout(timer); });
}
