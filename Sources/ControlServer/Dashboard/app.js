// The scenariod dashboard: plain JavaScript modules, no build step, every request a documented control API
// operation on the same origin (the daemon's socket, or `scenarioctl dashboard`'s bridge to it). Live changes come
// from the session's event stream, never from polling. This module routes the address to a page:
//   api.js        the API as the page reaches it: token, outages, requests, event streams, the banner
//   dom.js        building elements, and the text forms pages share
//   leaving.js    what a page stops when another is drawn
//   pages.js      the lists of scenarios and sessions
//   explorations-page.js  explorations run on the daemon's engine: started, watched, cancelled
//   session-*.js  a session's page and its panels

import { api, attempt, connection, showError, takeLinkNotice, tradeLinkInAddress } from "./api.js";
import { leavePage } from "./leaving.js";
import { explorationsPage } from "./explorations-page.js";
import { scenariosPage, sessionsPage } from "./pages.js";
import { sessionPage } from "./session-page.js";

const main = document.getElementById("main");

async function route() {
  await tradeLinkInAddress();
  leavePage();
  // A list page is read again when the daemon is back; a session page's event stream catches up by itself.
  connection.onBack = route;
  const [, page, id] = location.hash.match(/^#\/([^/]*)\/?(.*)$/) || [null, "scenarios", ""];
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.page === page) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  if (page === "session" && id) await sessionPage(decodeURIComponent(id));
  else if (page === "sessions") await sessionsPage();
  else if (page === "explorations") await explorationsPage();
  else await scenariosPage();
  const notice = takeLinkNotice();
  if (notice) showError(new Error(notice));
  main.focus({ preventScroll: true });
}

window.addEventListener("hashchange", route);
attempt(async () => {
  const version = await api("GET", "/v1/version");
  document.getElementById("daemon").textContent = `${version.daemon} ${version.version}`;
});
route();
