// A session's State panel: the Model's state as a tree, with what the last step changed marked.

import { el, json } from "./dom.js";

export function statePanel() {
  const tree = el("ul", { class: "tree", id: "state" });
  let state = null;
  // The state when the last step ended: what the next step changed is measured from it, not from a state the
  // step passed through (a rewind rebuilds the session from its start before it replays).
  let stepStart = null;

  function show(next) {
    const before = stepStart ?? state;
    state = next;
    tree.replaceChildren(...treeItems(next, before, before !== null));
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

  return {
    node: el("section", { class: "panel", "aria-labelledby": "state-title" }, el("h2", { id: "state-title" }, "State"), tree),
    show,
    /** A step ended: the next step's changes are marked against the state now. */
    stepEnded() { stepStart = state; },
  };
}
