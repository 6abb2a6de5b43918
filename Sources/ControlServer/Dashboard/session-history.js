// A session's History panel: what clients did to it, step by step, each a place to go back to.

import { api, attempt, load } from "./api.js";
import { el } from "./dom.js";

export function historyPanel(base) {
  const list = el("ol", { class: "history", id: "history" });
  let newestStep = 0;

  /** The history read again; returns it (undefined when the read failed). */
  async function refresh() {
    const history = await load(() => api("GET", `${base}/history`));
    if (!history) return undefined;
    const last = history.steps.length - 1;
    newestStep = last;
    list.replaceChildren(
      ...history.steps.map((step) => el("li", { "data-step": step.step, class: step.step === last ? "current" : "" },
        el("span", {}, el("span", { class: "mono" }, `${step.step}. ${step.time}`), " ", step.summary),
        step.step === last ? el("span", { class: "muted" }, "now") :
          el("button", { type: "button", disabled: Boolean(history.notRewindable), title: history.notRewindable || "",
            onclick: () => attempt(() => api("POST", `${base}/rewind`, { step: step.step })) }, "Go back to here"))),
      ...(history.notRewindable ? [el("li", { class: "muted" }, `Cannot go back: ${history.notRewindable}.`)] : []));
    return history;
  }

  return {
    node: el("section", { class: "panel developer", "aria-labelledby": "history-title" }, el("h2", { id: "history-title" }, "History"), list),
    refresh,
    /** Goes back one step, to the one before the newest. */
    rewindOne() { if (newestStep > 0) attempt(() => api("POST", `${base}/rewind`, { step: newestStep - 1 })); },
  };
}
