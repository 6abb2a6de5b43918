// A session's Clock panel: its virtual time (and in the scenario's time zone), moves by steps or to an instant, and
// play, which moves it on at a rate while the page is open.

import { api, attempt, Outage, showError } from "./api.js";
import { el } from "./dom.js";

export function clockPanel(base, scenario, startedAt) {
  const now = el("span", { class: "now", id: "now" }, startedAt);
  const nowLocal = el("span", { class: "muted", id: "now-local" });
  const duration = el("input", { type: "text", id: "advance-by", value: "2s", size: "7", "aria-label": "Duration to advance by" });
  const instant = el("input", { type: "text", id: "set-to", placeholder: "2026-11-01T12:00:00Z", size: "22", "aria-label": "Instant to set the clock to" });
  const rate = el("select", { id: "play-rate", "aria-label": "Play rate" }, ["1", "10", "60", "600"].map((r) => el("option", { value: r, selected: r === "60" }, `${r}×`)));
  const play = el("button", { type: "button", id: "play", onclick: () => togglePlay() }, "Play");
  let playing = null;

  /** The clock as the API gives it (UTC) and, beside it, in the scenario's time zone when it names one. */
  function showNow(instant) {
    now.textContent = instant;
    const zone = scenario && scenario.clockTimeZone;
    nowLocal.textContent = zone ? `${new Intl.DateTimeFormat(undefined, { timeZone: zone, dateStyle: "medium", timeStyle: "medium" }).format(new Date(instant))} (${zone})` : "";
  }
  const advance = async (by) => { const answer = await attempt(() => api("POST", `${base}/clock/advance`, { by })); if (answer) showNow(answer.now); };

  function togglePlay() {
    if (playing) {
      clearInterval(playing.timer);
      playing = null;
      play.textContent = "Play";
      return;
    }
    // Every quarter second of wall time moves the clock by rate × 250 ms; a tick is skipped while one is in flight.
    playing = { busy: false, timer: setInterval(async () => {
      if (!playing || playing.busy) return;
      playing.busy = true;
      // Marked as a play's move, so the history keeps the whole play as one step.
      try { await api("POST", `${base}/clock/advance`, { by: `${Number(rate.value) * 250}ms`, play: true }); } catch (error) { if (!(error instanceof Outage)) showError(error); togglePlay(); }
      if (playing) playing.busy = false;
    }, 250) };
    play.textContent = "Pause";
  }

  return {
    node: el("section", { class: "panel", "aria-labelledby": "clock-title" }, el("h2", { id: "clock-title" }, "Clock"),
      el("div", { class: "row" }, now, nowLocal),
      el("div", { class: "row" },
        el("button", { type: "button", onclick: () => advance("1s") }, "+1 s"),
        el("button", { type: "button", onclick: () => advance("1m") }, "+1 min"),
        el("button", { type: "button", onclick: () => advance("15m") }, "+15 min")),
      el("form", { class: "row", id: "advance", onsubmit: (event) => { event.preventDefault(); advance(duration.value.trim()); } },
        duration, el("button", { type: "submit" }, "Advance")),
      el("form", { class: "row", id: "set-clock", onsubmit: async (event) => {
        event.preventDefault();
        const answer = await attempt(() => api("PUT", `${base}/clock`, { now: instant.value.trim() }));
        if (answer) showNow(answer.now);
      } }, instant, el("button", { type: "submit" }, "Set")),
      el("div", { class: "row" }, rate, play)),
    showNow,
    /** The next step of a presenter: the clock moved by the duration in the field. */
    step: () => advance(duration.value.trim()),
    togglePlay,
    stop() { if (playing) togglePlay(); },
  };
}
