// walker review site: small helps on top of Material. No network, no libraries.

// Name the theme's search dialog for screen readers (Material leaves it unnamed).
document.querySelectorAll(".md-search[role=dialog]").forEach((dialog) => dialog.setAttribute("aria-label", "Search"));

// A hypothesis or a cited note is not in the navigation: mark the section it belongs to instead.
(() => {
  const section = location.pathname.includes("/hypotheses/") ? "/hypotheses/index.html"
    : location.pathname.includes("/notes/") ? "/review.html" : null;
  if (!section || document.querySelector(".md-nav__link--active")) return;
  document.querySelectorAll(".md-nav--primary a.md-nav__link").forEach((link) => {
    if (link.href.endsWith(section)) link.classList.add("md-nav__link--active");
  });
})();

// Tables sort by a column when its heading is clicked (again: the other way round).
document.querySelectorAll(".md-typeset table:not([class])").forEach((table) => {
  const body = table.tBodies[0];
  if (!body || body.rows.length < 2) return;
  table.querySelectorAll("thead th").forEach((heading, column) => {
    heading.tabIndex = 0;
    heading.setAttribute("role", "button");
    heading.title = "Sort by this column";
    const sort = () => {
      const up = heading.getAttribute("aria-sort") !== "ascending";
      table.querySelectorAll("thead th").forEach((th) => th.removeAttribute("aria-sort"));
      heading.setAttribute("aria-sort", up ? "ascending" : "descending");
      const key = (row) => row.cells[column].textContent.trim();
      const rows = Array.from(body.rows).sort((a, b) =>
        key(a).localeCompare(key(b), undefined, { numeric: true }) * (up ? 1 : -1));
      rows.forEach((row) => body.appendChild(row));
    };
    heading.addEventListener("click", sort);
    heading.addEventListener("keydown", (event) => { if (event.key === "Enter") sort(); });
  });
});

// The hypotheses index: a filter box over its tables, for triage by word, kind, status or note.
if (location.pathname.endsWith("/hypotheses/index.html")) {
  document.querySelectorAll(".md-typeset table:not([class])").forEach((table, number) => {
    const body = table.tBodies[0];
    if (!body || body.rows.length < 2) return;
    const box = document.createElement("input");
    box.type = "search";
    box.className = "walker-filter";
    box.placeholder = "Filter: a word, a kind, a note…";
    box.setAttribute("aria-label", "Filter this table");
    const status = document.createElement("span");
    status.className = "walker-filter-status";
    status.setAttribute("aria-live", "polite");
    const total = body.rows.length;
    box.addEventListener("input", () => {
      const words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
      let shown = 0;
      Array.from(body.rows).forEach((row) => {
        const text = row.textContent.toLowerCase();
        const match = words.every((word) => text.includes(word));
        row.hidden = !match;
        shown += match ? 1 : 0;
      });
      status.textContent = words.length ? `${shown} of ${total} shown` : "";
    });
    const wrapper = table.closest(".md-typeset__table") || table;
    wrapper.before(box, status);
    box.id = `walker-filter-${number}`;
  });
}
