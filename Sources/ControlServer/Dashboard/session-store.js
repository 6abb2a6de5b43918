// A session's Key-value state panel: each key's value as JSON to edit, save or delete, and a key to add.

import { api, attempt, load, showError } from "./api.js";
import { el, encode } from "./dom.js";

export function keyValuePanel(base) {
  const keyValues = el("div", { id: "kv" });

  async function refresh() {
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

  return {
    node: el("section", { class: "panel developer", "aria-labelledby": "kv-title" }, el("h2", { id: "kv-title" }, "Key-value state"), keyValues),
    refresh,
  };
}
