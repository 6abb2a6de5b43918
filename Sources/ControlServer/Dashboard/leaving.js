// What the page shown now must stop when another is drawn: its event stream, its timers, its keys.

let stop = () => {};

/** Stops what the page shown now started; a page calls it before it draws over another. */
export function leavePage() {
  const stopping = stop;
  stop = () => {};
  stopping();
}

/** Runs `work` when the page shown now is left. */
export function whenLeaving(work) {
  stop = work;
}
