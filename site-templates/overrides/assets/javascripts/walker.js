// walker review site: name the theme's search dialog for screen readers (Material leaves it unnamed).
document.querySelectorAll(".md-search[role=dialog]").forEach((dialog) => dialog.setAttribute("aria-label", "Search"));
