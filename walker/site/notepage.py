"""A page for each note the walks cite: the note as Obsidian shows it, bounded so no note can stall the
build (very long, deeply nested or bracket-heavy notes are shortened or flattened, and say so)."""

from __future__ import annotations

import re
from pathlib import Path

from walker.corpus import Corpus
from walker.corpus.properties import split_frontmatter
from walker.pool.store import POOL, StoredRecord
from walker.refs import note_of
from walker.site.links import BLOCK_ID_AT_END, WIKILINK, SiteLinks, _outside_code, block_anchor
from walker.site.markup import STATUS_TITLES, as_code, as_text
from walker.site.obsidian import as_obsidian_shows


def note_page(root: Path, path: str, page: str, corpus: Corpus, links: SiteLinks,
               citing: list[StoredRecord]) -> str:
    note = corpus.notes[path]
    try:
        text = (root / path).read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
    except OSError:
        text = ""
    _, body, _ = split_frontmatter(text)
    body, cut = _cut_long(body)
    body, capped = _cap_nesting(body)
    # The note's own H1 stays its title; a note without one gets its file name. Either way, one H1.
    heading, _, rest = body.lstrip().partition("\n") if re.match(r"\s*# ", body) else ("", "", body)
    body = "\n".join(filter(None, [heading, as_obsidian_shows(rest, titled=True)]))
    body = _outside_code(body, _block_id_to_attribute)
    body = re.sub(r"(?m)^\^[A-Za-z0-9-]+[ \t]*$", "", body)  # a standalone id under a table: no anchor possible
    body = _defuse_brackets(links.convert(body, path, page))
    opener = f"[Open in Obsidian]({links.obsidian_url(path)}) · {as_code(path)}"
    if citing:
        opener += "\n\nCited by " + ", ".join(
            f"[{as_text(r.record.title or r.id)}]({links.relative(page, f'hypotheses/{r.path.name}')})"
            f" ({as_text(STATUS_TITLES.get(r.record.status, r.record.status).lower())})"
            for r in citing) + "."
    if cut:
        opener += (f"\n\n!!! note \"Shortened\"\n    This note is long: the page shows its first {cut}. "
                   "Open it in Obsidian to read the rest.")
    if capped:
        opener += (f"\n\n!!! warning \"Flattened\"\n    {capped} lines nest lists or quotes deeper than {MAX_NESTING} "
                   "levels; they are shown at that depth. Obsidian shows the note as written.")
    title, _, rest = body.partition("\n") if heading else (f"# {as_text(note.title)}", "", body)
    return f"{NOT_SEARCHED}{title}\n\n{opener}\n\n{rest}\n"


# The site's search is for walker's pages (reports, hypotheses); a note is searched in Obsidian. Leaving
# thousands of cited notes out keeps the index small and the build fast.
NOT_SEARCHED = "---\nsearch:\n  exclude: true\n---\n"


PAGE_LINES = 3000  # a cited note's page shows at most this many lines...


PAGE_CHARS = 200_000  # ...and characters: Python-Markdown slows down sharply on larger pages


UNCLOSED_BRACKETS = 32  # more unclosed "[" than this in a note are defused before rendering


MAX_NESTING = 16  # Python-Markdown recurses per level: a note nested a thousand deep would stop the build


_CONTAINER = re.compile(r"[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))")


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


def _defuse_brackets(body: str) -> str:
    """Brackets that never close are shown as look-alikes (［ and （) when there are many of them.
    Python-Markdown scans from every ``[`` or ``](`` to its partner, so a note of ten thousand unclosed
    ``[[`` would take hours to render, and an escape per bracket costs it nearly as much; balanced
    brackets (every link) stay as they are."""
    for opener, closer, lookalike in (("[", "]", "［"), ("(", ")", "（")):
        if body.count(opener) - body.count(closer) < UNCLOSED_BRACKETS:
            continue
        unclosed: list[int] = []
        for at, char in enumerate(body):
            if char == opener and (at == 0 or body[at - 1] != "\\"):
                unclosed.append(at)
            elif char == closer and unclosed:
                unclosed.pop()
        if len(unclosed) >= UNCLOSED_BRACKETS:
            pieces, start = [], 0
            for at in unclosed:
                pieces += [body[start:at], lookalike]
                start = at + 1
            body = "".join(pieces) + body[start:]
    return body


def _cap_nesting(body: str) -> tuple[str, int]:
    """Lists and quotes nested deeper than MAX_NESTING are shown at that depth. Returns the text and
    how many lines were flattened."""
    capped = 0
    lines = body.split("\n")
    for number, line in enumerate(lines):
        if len(line) - len(line.lstrip()) <= 4 * MAX_NESTING and line.count(">") + line.count("-") < MAX_NESTING:
            continue  # the common case, decided without a regex
        markers: list[str] = []
        at = 0
        while match := _CONTAINER.match(line, at):
            markers.append(match.group(0).strip())
            at = match.end()
        indent = len(line) - len(line.lstrip(" \t"))
        if len(markers) > MAX_NESTING or indent > 4 * MAX_NESTING:
            kept = " ".join(markers[:MAX_NESTING])
            lines[number] = " " * min(indent, 4 * MAX_NESTING) + kept + " " + line[at:].lstrip()
            capped += 1
    return "\n".join(lines), capped


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


def cited_notes(corpus: Corpus, root: Path, reports: list[Path], records: list[StoredRecord]) -> list[str]:
    """Corpus notes that a report or a record links to or cites."""
    links = SiteLinks(corpus, "", {}, {})
    found: set[str] = set()
    texts = [(f"{POOL}/reports/{p.name}", p.read_text(encoding="utf-8")) for p in reports]
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


def inline_block_ids(path: Path) -> set[str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    found: set[str] = set()

    def collect(line: str) -> str:
        found.update(m.group(1).lower() for m in BLOCK_ID_AT_END.finditer(line))
        return line

    _outside_code(text, collect)
    return found


def plain_file(path: Path) -> bool:
    """A file of walker's under walks/: never a symlink, which could lead anywhere."""
    return path.is_file() and not path.is_symlink()
