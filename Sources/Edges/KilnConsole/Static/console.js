// The only script of the console: a page's live part (the overview's, a job's), replaced whenever the server sends it
// again, until the server says it is done.
document.addEventListener("DOMContentLoaded", () => {
  const live = document.querySelector("[data-live]");
  if (!live || !window.EventSource) return;
  const source = new EventSource(live.dataset.live);
  source.addEventListener(live.dataset.event || "overview", (event) => { live.innerHTML = event.data; });
  source.addEventListener("done", () => source.close());
});
