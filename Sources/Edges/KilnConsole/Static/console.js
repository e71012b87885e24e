// The only script of the console. A page's live part (the overview's, a job's) is replaced whenever the server sends
// it again, until the server says it is done.
document.addEventListener("DOMContentLoaded", () => {
  const live = document.querySelector("[data-live]");
  if (!live || !window.EventSource) return;
  const source = new EventSource(live.dataset.live);
  source.addEventListener(live.dataset.event || "overview", (event) => { live.innerHTML = event.data; });
  source.addEventListener("done", () => source.close());
});

// A list's parts marked `data-refresh` are read again from the same address every few seconds while the page is in
// view, each replaced by its new version; the boxes the operator ticked stay ticked, and the filters, outside them,
// are left as they are. A page that cannot be read (a session ended, the console down) is left as it was.
document.addEventListener("DOMContentLoaded", () => {
  if (!document.querySelector("[data-refresh]")) return;
  setInterval(async () => {
    if (document.hidden) return;
    let text;
    try {
      const response = await fetch(location.href, { credentials: "same-origin", redirect: "error" });
      if (!response.ok) return;
      text = await response.text();
    } catch {
      return;
    }
    const page = new DOMParser().parseFromString(text, "text/html");
    for (const part of document.querySelectorAll("[data-refresh]")) {
      const fresh = page.querySelector(`[data-refresh="${part.dataset.refresh}"]`);
      if (!fresh) continue;
      const ticked = new Set([...part.querySelectorAll("input[type=checkbox]:checked")].map((box) => box.value));
      part.innerHTML = fresh.innerHTML;
      for (const box of part.querySelectorAll("input[type=checkbox]")) box.checked = ticked.has(box.value);
    }
  }, 5000);
});

// A box marked `data-select-all` ticks or clears every job's box of its form.
document.addEventListener("change", (event) => {
  const all = event.target.closest("[data-select-all]");
  if (!all || !all.form) return;
  for (const box of all.form.querySelectorAll("input[name=id]")) box.checked = all.checked;
});
