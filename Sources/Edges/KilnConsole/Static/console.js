// The only script of the console: the overview's live part, replaced whenever the server sends it again.
document.addEventListener("DOMContentLoaded", () => {
  const live = document.querySelector("[data-live]");
  if (!live || !window.EventSource) return;
  const source = new EventSource(live.dataset.live);
  source.addEventListener("overview", (event) => { live.innerHTML = event.data; });
});
