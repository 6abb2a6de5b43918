// A session's Streams panel: the streamed answers its Model is reading, how far it has got, and a presenter's
// controls to push the rest of a stalled reply or end it.

import { api, attempt, load } from "./api.js";
import { el, shorten } from "./dom.js";

export function streamsPanel(base) {
  const noStreams = el("li", { class: "muted", id: "no-streams" }, "No open streams.");
  const list = el("ul", { class: "streams", id: "streams" }, noStreams);
  // Each open stream's entry by its number, kept across refreshes so a push being typed keeps its text and focus.
  const items = new Map();
  // The last stream seen to end (streamChanged), shown under the open ones until a rewind or reset, and its line.
  let endedStream = null, endedLine = null;
  // Answers of GET …/streams may come back out of order: only one asked for later than the last shown is shown.
  let asked = 0, shown = 0;

  /** The open streams as the API lists them, and the last one that ended; a stream that ended leaves the list. */
  async function refresh() {
    const ask = ++asked;
    const answer = await load(() => api("GET", `${base}/streams`));
    if (!answer || ask <= shown) return;
    shown = ask;
    show(answer.streams);
  }

  function show(open) {
    const numbers = new Set(open.map((stream) => stream.stream));
    for (const [number, item] of items) {
      if (!numbers.has(number)) { item.node.remove(); items.delete(number); }
    }
    // One open again after a rewind is open, not ended.
    if (endedStream && numbers.has(endedStream.stream)) endedStream = null;
    const nodes = open.map((stream) => {
      const item = items.get(stream.stream) || streamItem(stream);
      items.set(stream.stream, item);
      item.show(stream);
      return item.node;
    });
    if (!endedStream) endedLine = null;
    else if (!endedLine || endedLine.stream !== endedStream) {
      const stream = endedStream;
      endedLine = { stream, node: el("li", { class: "muted", "data-ended": stream.stream },
        `Stream ${stream.stream}${stream.route ? ` (${stream.route})` : ""} ended: ${stream.state}`, stream.fault ? ` (${stream.fault})` : "",
        `, after ${stream.delivered} delivered`, stream.lastChunk ? `, the last read at ${stream.lastChunk.time}` : "") };
    }
    // Entries are updated in place, never rebuilt, so a push being typed keeps its text; the list is put together
    // again only when an entry came or went, and then the field that had the focus gets it back.
    const wanted = [...nodes, open.length ? null : noStreams, endedLine ? endedLine.node : null].filter(Boolean);
    if (wanted.length !== list.children.length || wanted.some((node, index) => list.children[index] !== node)) {
      const focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement : null;
      list.replaceChildren(...wanted);
      if (focused && focused.isConnected) focused.focus();
    }
  }

  /** An open stream's entry: what it is, how far the Model has read it, its last chunk, and a presenter's controls. */
  function streamItem(first) {
    const number = first.stream;
    const what = el("div", { class: "row" });
    const progress = el("div", { class: "row", "data-field": "progress" });
    const last = el("pre", { class: "mono chunk", "data-field": "last-chunk" });
    const lastTitle = el("div", { class: "muted", "data-field": "last-chunk-title" });
    const eventName = el("input", { type: "text", name: "event", size: "8", placeholder: "event", "aria-label": `Event name to push into stream ${number} (optional)` });
    const data = el("input", { type: "text", name: "data", placeholder: "data", "aria-label": `Data to push into stream ${number}` });
    let kind = first.kind;
    const end = (body) => attempt(() => api("POST", `${base}/streams/${number}/close`, body));
    const form = el("form", { class: "row", "data-push": number, onsubmit: async (event) => {
      event.preventDefault();
      // A server-sent event (data, with an event name if given), or for any other streamed body the text as typed.
      const body = kind === "events" ? { data: data.value, ...(eventName.value.trim() ? { event: eventName.value.trim() } : {}) } : { text: data.value };
      // What was pushed is in the stream now: its field is cleared for the next (the event name is kept).
      if (await attempt(() => api("POST", `${base}/streams/${number}/push`, body))) data.value = "";
    } },
    eventName, data,
    el("button", { type: "submit", class: "primary", "data-send": number }, "Send"),
    el("button", { type: "button", "data-close": number, onclick: () => end({}) }, "Close"),
    el("button", { type: "button", "data-drop": number, title: "Break the stream off with connectionReset", onclick: () => end({ fault: "connectionReset" }) }, "Drop"));
    const node = el("li", { class: "stream", "data-stream": number }, what, progress, lastTitle, last, form);
    function showStream(stream) {
      kind = stream.kind;
      // Only a server-sent event has an event name; any other streamed body takes the text as it is. A gRPC call's
      // messages are protobuf its route writes, so nothing is pushed into one: it can only be closed or dropped.
      eventName.hidden = kind !== "events";
      data.hidden = kind === "rpc";
      form.querySelector("[data-send]").hidden = kind === "rpc";
      data.placeholder = kind === "events" ? "data" : "text";
      what.replaceChildren(
        el("strong", { class: "mono", "data-field": "route" }, stream.route || "no route"),
        el("span", { class: "mono", "data-field": "request" }, `${stream.method} ${stream.url}`),
        el("span", { class: "badge", "data-field": "kind" }, stream.kind),
        el("span", { class: "muted" }, `stream ${stream.stream}${stream.status !== undefined ? `, status ${stream.status}` : ""}, opened ${stream.openedAt}`));
      progress.replaceChildren(
        el("span", { "data-field": "counts" }, `delivered ${stream.delivered}, pending ${stream.pending}`),
        el("span", { class: "muted", "data-field": "next" }, stream.nextAt ? `next due at ${stream.nextAt}` : "nothing scripted is due"));
      lastTitle.textContent = stream.lastChunk ? `Last chunk, read at ${stream.lastChunk.time}${stream.lastChunk.pushed ? " (pushed)" : ""}:` : "No chunk read yet.";
      last.textContent = stream.lastChunk ? shorten(stream.lastChunk.text.replace(/\n+$/, ""), 240) : "";
      last.hidden = !stream.lastChunk;
    }
    return { node, show: showStream };
  }

  return {
    // For a presenter too (not a developer's panel): the rest of a stalled reply is pushed from here.
    node: el("section", { class: "panel", "aria-labelledby": "streams-title", id: "streams-panel" }, el("h2", { id: "streams-title" }, "Streams"), list),
    refresh,
    /** A stream delivered a chunk or ended (streamChanged): the one that ended is kept to show, the list read again. */
    changed(stream) {
      if (stream.state !== "open") endedStream = stream;
      refresh();
    },
    /** A rewind or reset rebuilt the session: a stream that ended before may never have been. */
    forgetEnded() { endedStream = null; },
  };
}
