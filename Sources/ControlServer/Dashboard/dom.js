// Building the page's elements, and the text forms the pages share.

/** A DOM element: el("button", {type: "button", onclick: f}, "text", child…). */
export function el(tag, attributes = {}, ...children) {
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

/** `text` (a URL) with a place to break after each `/`, `?`, `&` and `=`: a long one wraps between its parts. */
export function breakable(text) {
  return text.split(/(?<=[/?&=])/).flatMap((part, index) => index ? [el("wbr"), part] : [part]);
}

export const faults = ["timeout", "connectionReset", "connectionRefused", "offline", "cancelled"];
export const encode = (text) => encodeURIComponent(text);
export const json = (value) => JSON.stringify(value);
export const shorten = (text, length) => text.length > length ? `${text.slice(0, length - 1)}…` : text;

/** Bytes for a person: `512 B`, `64.0 KiB`, `15.3 MiB`, as the daemon's messages write them. */
export function formatBytes(bytes) {
  for (const [unit, size] of [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]]) {
    if (bytes >= size) return `${(bytes / size).toFixed(1)} ${unit}`;
  }
  return `${bytes} B`;
}

/** What a session's stores hold, one line, with each store in its title. */
export function heldText(held) {
  return held ? formatBytes(held.total) : "";
}
export function heldTitle(held) {
  return held ? `journal ${formatBytes(held.journal)}, history ${formatBytes(held.history)}, event streams ${formatBytes(held.events)}, recording ${formatBytes(held.recording)}, answers kept ${formatBytes(held.sent ?? 0)}` : "";
}

/** A delay in milliseconds as scenariod writes durations: 2s, 750ms, 1m30s. */
export function delayText(milliseconds) {
  const parts = [[3600000, "h"], [60000, "m"], [1000, "s"], [1, "ms"]];
  let rest = Math.round(milliseconds), text = "";
  for (const [size, unit] of parts) {
    if (rest >= size) { text += `${Math.floor(rest / size)}${unit}`; rest %= size; }
  }
  return text || "0s";
}
