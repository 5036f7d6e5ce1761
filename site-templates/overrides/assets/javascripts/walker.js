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

// Tables sort by a column when its heading's button is pressed (again: the other way round). The heading
// stays a column heading (aria-sort says the order); a heading holding a link is left as it is, since a
// button may not hold a link.
document.querySelectorAll(".md-typeset table:not([class])").forEach((table) => {
  const body = table.tBodies[0];
  if (!body || body.rows.length < 2) return;
  table.querySelectorAll("thead th").forEach((heading, column) => {
    if (heading.querySelector("a, button, input, select, textarea, [tabindex]")) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "walker-sort";
    button.title = "Sort by this column";
    button.append(...heading.childNodes);
    heading.append(button);
    button.addEventListener("click", () => {
      const up = heading.getAttribute("aria-sort") !== "ascending";
      table.querySelectorAll("thead th").forEach((th) => th.removeAttribute("aria-sort"));
      heading.setAttribute("aria-sort", up ? "ascending" : "descending");
      const key = (row) => row.cells[column].textContent.trim();
      const rows = Array.from(body.rows).sort((a, b) =>
        key(a).localeCompare(key(b), undefined, { numeric: true }) * (up ? 1 : -1));
      rows.forEach((row) => body.appendChild(row));
    });
  });
});

// Each copy button says what it copies: the theme gives every one the same name, and wraps each in a
// navigation landmark of its own, unnamed (a copy button is not navigation).
const nameCopyButtons = () => {
  const seen = new Map();
  document.querySelectorAll(".md-typeset button.md-code__button[data-md-type='copy']").forEach((button) => {
    const code = document.querySelector(button.dataset.clipboardTarget);
    const line = (code ? code.textContent : "").trim().split("\n")[0];
    const command = line.match(/^walker ([\w-]+)/);
    const shown = line.length > 40 ? `${line.slice(0, 40)}…` : line;
    let name = command ? `Copy the walker ${command[1]} command` : `Copy the code: ${shown}`;
    const count = (seen.get(name) || 0) + 1;
    seen.set(name, count);
    if (count > 1) name += ` (${count})`;
    button.setAttribute("aria-label", name);
    button.title = name;
    if (button.parentElement.matches("nav.md-code__nav")) button.parentElement.setAttribute("role", "none");
  });
};
if (window.document$) window.document$.subscribe(() => setTimeout(nameCopyButtons));

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
