// A session's Network panel: what its network is switched into, switches for a presenter, and one route at a time
// answering otherwise until a reset.

import { api, attempt, load } from "./api.js";
import { el, encode, faults } from "./dom.js";

export function networkPanel(base, scenario) {
  const conditions = el("span", { class: "mono", id: "conditions" }, "normal");
  const slowBy = el("input", { type: "text", id: "slow-by", value: "2s", size: "6", "aria-label": "Delay to add to every answer" });
  const faultChoice = el("select", { id: "network-fault", "aria-label": "Transport error for every request" }, faults.map((fault) => el("option", { value: fault }, fault)));

  function show(answer) {
    const parts = [answer.offline ? "offline" : null, answer.fault ? `every request fails: ${answer.fault}` : null, answer.delay ? `every answer ${answer.delay} later` : null].filter(Boolean);
    conditions.textContent = parts.length ? parts.join(", ") : "normal";
  }
  const set = async (body) => { const answer = await attempt(() => api("PUT", `${base}/network/conditions`, body)); if (answer) show(answer); };

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

  return {
    node: el("section", { class: "panel", "aria-labelledby": "network-title", id: "network" }, el("h2", { id: "network-title" }, "Network"),
      el("div", { class: "row" }, "Now: ", conditions),
      el("div", { class: "row" },
        el("button", { type: "button", id: "network-normal", onclick: () => set({}) }, "Normal"),
        el("button", { type: "button", id: "network-offline", onclick: () => set({ offline: true }) }, "Offline")),
      el("form", { class: "row", id: "network-slow", onsubmit: (event) => { event.preventDefault(); set({ delay: slowBy.value.trim() }); } },
        slowBy, el("button", { type: "submit" }, "Slow down every answer")),
      el("form", { class: "row", id: "network-fail", onsubmit: (event) => { event.preventDefault(); set({ fault: faultChoice.value }); } },
        faultChoice, el("button", { type: "submit" }, "Fail every request")),
      scenario && scenario.routes.length ? el("details", { class: "routes" }, el("summary", {}, "One route at a time (until a reset)"), scenario.routes.map(routeForm)) : null),
    async refresh() {
      const answer = await load(() => api("GET", `${base}/network/conditions`));
      if (answer) show(answer);
    },
  };
}
