"""A page for each note the walks cite: the note as Obsidian shows it, bounded so no note can stall the
build (a very long note is shortened, and says so; the site's Markdown extension flattens deep nesting)."""

from __future__ import annotations

import re
from pathlib import Path

from walker.corpus import Corpus
from walker.corpus.properties import split_frontmatter
from walker.pool.store import POOL, StoredRecord
from walker.refs import note_of
from walker.safefile import REPORT_LIMIT
from walker.site.links import BLOCK_ID_AT_END, WIKILINK, SiteLinks, _outside_code, block_anchor
from walker.site.markup import STATUS_TITLES, as_code, as_text
from walker.site.obsidian import as_obsidian_shows
from walker.site.reading import read_text


def note_page(root: Path, path: str, page: str, corpus: Corpus, links: SiteLinks,
               citing: list[StoredRecord], text: str | None = None) -> str:
    """The page of a cited note; ``text``: the note as already read (by default it is read here)."""
    note = corpus.notes[path]
    if text is None:
        text = read_note(root, path)
    _, body, _ = split_frontmatter(text or "")
    body, cut = _cut_long(body)
    # The note's own H1 stays its title; a note without one gets its file name. Either way, one H1.
    heading, _, rest = body.lstrip().partition("\n") if re.match(r"\s*# ", body) else ("", "", body)
    body = "\n".join(filter(None, [heading, as_obsidian_shows(rest, titled=True)]))
    body = _outside_code(body, _block_id_to_attribute)
    body = re.sub(r"(?m)^\^[A-Za-z0-9-]+[ \t]*$", "", body)  # a standalone id under a table: no anchor possible
    body = links.convert(body, path, page)
    opener = f"[Open in Obsidian]({links.obsidian_url(path)}) · {as_code(path)}"
    if citing:
        opener += "\n\nCited by " + ", ".join(
            f"[{as_text(r.record.title or r.id)}]({links.relative(page, f'hypotheses/{r.path.name}')})"
            f" ({as_text(STATUS_TITLES.get(r.record.status, r.record.status).lower())})"
            for r in citing) + "."
    if cut:
        opener += (f"\n\n!!! note \"Shortened\"\n    This note is long: the page shows its first {cut}. "
                   "Open it in Obsidian to read the rest.")
    title, _, rest = body.partition("\n") if heading else (f"# {as_text(note.title)}", "", body)
    return f"{NOT_SEARCHED}{title}\n\n{opener}\n\n{rest}\n"


# The site's search is for walker's pages (reports, hypotheses); a note is searched in Obsidian. Leaving
# thousands of cited notes out keeps the index small and the build fast.
NOT_SEARCHED = "---\nsearch:\n  exclude: true\n---\n"


PAGE_LINES = 3000  # a cited note's page shows at most this many lines...


PAGE_CHARS = 200_000  # ...and characters: Python-Markdown slows down sharply on larger pages


def _cut_long(body: str) -> tuple[str, str]:
    """A cited note longer than a page can render in reasonable time is cut at a line break; returns
    the text and what was kept ("" when nothing was cut)."""
    if len(body) <= PAGE_CHARS and body.count("\n") < PAGE_LINES:
        return body, ""
    lines = body[:PAGE_CHARS].split("\n")[:PAGE_LINES]
    if len(lines) > 1:
        lines = lines[:-1]  # the last one may be cut mid-line
    kept = "\n".join(lines)
    if kept.count("```") % 2:
        kept += "\n```"  # close a code block the cut left open
    return kept, f"{len(lines):,} lines"


def _block_id_to_attribute(line: str) -> str:
    """``text ^id`` -> the same text with an attr_list id (a heading inline, a block on the line after)."""
    match = BLOCK_ID_AT_END.search(line)
    if not match:
        return line
    attribute = "{: #" + block_anchor(match.group(1)) + " }"
    text = line[: match.start()].rstrip()
    if text.lstrip().startswith("#"):
        return f"{text} {attribute}"
    indent = re.match(r"\s*(?:>\s*)*(?:[-*+]\s+|\d+[.)]\s+)?", line).group(0)  # type: ignore[union-attr]
    return f"{text}\n{' ' * len(indent) if not indent.strip().startswith('>') else indent}{attribute}"


def cited_notes(corpus: Corpus, reports: dict[str, str], records: list[StoredRecord]) -> list[str]:
    """Corpus notes that a report (by file name, its text) or a record links to or cites."""
    links = SiteLinks(corpus, "", {}, {})
    found: set[str] = set()
    texts = [(f"{POOL}/reports/{name}", text) for name, text in reports.items()]
    texts += [(f"{POOL}/{r.folder}/{r.path.name}", r.body) for r in records]
    for source, text in texts:
        for match in WIKILINK.finditer(text):
            target = match.group(2).replace("\\|", "|").split("|")[0].split("#")[0].strip()
            resolved = links.resolver.resolve(target, source).path
            if resolved in corpus.notes:
                found.add(resolved)
    for record in records:
        for ref in record.record.supporting_refs:
            path = note_of(ref)
            if path in corpus.notes:
                found.add(path)
    return sorted(found)


def embedded_files(corpus: Corpus, root: Path, cited: list[str]) -> list[str]:
    """Pictures embedded in cited notes, copied so the notes render in place."""
    wanted = {link.resolved for link in corpus.links
              if link.source in cited and link.kind == "embed" and link.resolved
              and not link.resolved.endswith(".md") and (root / link.resolved).is_file()
              and (root / link.resolved).resolve().is_relative_to(root.resolve())}
    return sorted(p for p in wanted if p.rsplit(".", 1)[-1].lower() in {"png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "bmp"})


def read_note(root: Path, path: str) -> str | None:
    """A cited note's text; None (with a warning) when it is no regular file now or is too large."""
    return read_text(root / path, REPORT_LIMIT, root, links=True)


def inline_block_ids(text: str | None) -> set[str]:
    found: set[str] = set()
    if text is None:
        return found

    def collect(line: str) -> str:
        found.update(m.group(1).lower() for m in BLOCK_ID_AT_END.finditer(line))
        return line

    _outside_code(text, collect)
    return found
