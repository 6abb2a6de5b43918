// A session's Actions panel: a form per action of its Model, with a field per argument.

import { api, attempt, showError } from "./api.js";
import { el, encode } from "./dom.js";

export function actionsPanel(base, model) {
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

  return el("section", { class: "panel", "aria-labelledby": "actions-title" }, el("h2", { id: "actions-title" }, "Actions"),
    model.actions.map((action) => actionForm(action)));
}
