"""A page for each note the walks cite: the note as Obsidian shows it, bounded so no note can stall the
build (a very long note is shortened, and says so; the site's Markdown extension flattens deep nesting)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from walker.corpus import Corpus, find_subpath
from walker.corpus.files import on_disk
from walker.corpus.properties import split_frontmatter
from walker.pool.store import POOL, StoredRecord
from walker.refs import note_of, split_subpath
from walker.safefile import REPORT_LIMIT
from walker.site.links import BLOCK_ID_AT_END, WIKILINK, SiteLinks, _label, _outside_code, block_anchor
from walker.site.markup import STATUS_TITLES, as_code, as_text
from walker.site.obsidian import TagLink, as_obsidian_shows, regions
from walker.site.reading import read_text


def note_page(root: Path, path: str, page: str, corpus: Corpus, links: SiteLinks,
               citing: list[StoredRecord], text: str | None = None) -> str:
    """The page of a cited note; ``text``: the note as already read (by default it is read here)."""
    note = corpus.notes[path]
    if text is None:
        text = read_note(root, path)
    heading, body, cut = _shown(text, links.tag_link)
    body = "\n".join(filter(None, [heading, body]))
    body = _outside_code(body, _block_id_to_attribute, "^")
    body = STANDALONE_BLOCK_ID.sub("", body)  # a standalone id under a table: no anchor possible
    body, embeds = _embeds(body, Embedding(root, path, page, corpus, links))
    body = links.convert(body, path, page)
    for marker, shown in embeds.items():
        body = body.replace(marker, shown, 1)
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


def _shown(text: str | None, tag_link: TagLink | None = None) -> tuple[str, str, str]:
    """A cited note as its page shows it: its own H1 (or ""), the rest as Obsidian shows it, and what a long
    note's page keeps ("" when nothing was cut)."""
    _, body, _ = split_frontmatter(text or "")
    body, cut = _cut_long(body)
    # The note's own H1 stays its title; a note without one gets its file name. Either way, one H1.
    heading, _, rest = body.lstrip().partition("\n") if re.match(r"\s*# ", body) else ("", "", body)
    return as_obsidian_shows(heading) if heading else "", as_obsidian_shows(rest, True, tag_link), cut


STANDALONE_BLOCK_ID = re.compile(r"(?m)^\^[A-Za-z0-9-]+[ \t]*$")
HEADING_LINE = re.compile(r"^[ \t]{0,3}#{1,6}(?:[ \t]|$)")


def _block_id_to_attribute(line: str) -> str:
    """``text ^id`` -> the same text with an attr_list id on the line after. A heading keeps the id its text
    gives it (links to the heading need it), and a link to its block id leads there (``SiteLinks._anchor``)."""
    match = BLOCK_ID_AT_END.search(line)
    if not match:
        return line
    attribute = "{: #" + block_anchor(match.group(1)) + " }"
    text = line[: match.start()].rstrip()
    if HEADING_LINE.match(text):
        return text
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
    return sorted(found - _shadowed(found))


def _shadowed(paths: set[str]) -> set[str]:
    """MkDocs writes a folder's ``README.md`` as its ``index.html``: beside an ``index.md`` of the same folder a
    README can have no page (the two would overwrite each other), so links to it open it in Obsidian."""
    return {path for path in paths if path.rsplit("/", 1)[-1] == "README.md"
            and path[: -len("README.md")] + "index.md" in paths}


def embedded_files(corpus: Corpus, root: Path, cited: list[str]) -> list[str]:
    """Pictures embedded in cited notes, copied so the notes render in place."""
    sources = set(cited)
    wanted = {link.resolved for link in corpus.links
              if link.source in sources and link.kind == "embed" and link.resolved
              and not link.resolved.endswith(".md") and (root / link.resolved).is_file()
              and (root / link.resolved).resolve().is_relative_to(root.resolve())}
    return sorted(p for p in wanted if p.rsplit(".", 1)[-1].lower() in {"png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "bmp"})


def read_note(root: Path, path: str) -> str | None:
    """A cited note's text; None (with a warning) when it is no regular file now or is too large."""
    return read_text(Path(on_disk(root, path)), REPORT_LIMIT, root, links=True)


def inline_block_ids(text: str | None) -> set[str]:
    """The block ids the note's page gives an anchor: those ending a paragraph or a list item of the text it
    shows (not in a comment, nor past a long note's cut, nor on a heading, which keeps its own id)."""
    found: set[str] = set()
    if text is None or not BLOCK_ID_AT_END.search(text):
        return found  # most notes hold no block id: none of them needs rendering here

    def collect(line: str) -> str:
        if not HEADING_LINE.match(line):
            found.update(m.group(1).lower() for m in BLOCK_ID_AT_END.finditer(line))
        return line

    _outside_code(_shown(text)[1], collect, "^")
    return found


# --- embeds: ![[Note]], ![[Note#Heading]], ![[Note#^block]] on a line of their own -------------------------

EMBEDS_A_PAGE = 20  # a page shows at most this many embedded notes; the rest are links
EMBED_LINES = 200  # an embedded note shows at most this many lines...
EMBED_CHARS = 20_000  # ...and characters; the rest is in the note
EMBED_LINE = re.compile(r"^([ \t]*(?:>[ \t]?)*[ \t]*)!\[\[((?:[^\[\]\n]|\[(?!\[))+?)]][ \t]*$")
_DEMOTED = re.compile(r"^((?:[ \t]*>)*[ \t]{0,3})#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")


@dataclass(frozen=True)
class Embedding:
    """Where embeds are shown: the page of one note, and what resolves and reads the notes they embed."""

    root: Path
    path: str  # the note that embeds
    page: str  # its site page
    corpus: Corpus
    links: SiteLinks


def _embeds(body: str, where: Embedding) -> tuple[str, dict[str, str]]:
    """Each note embedded on a line of its own, shown in place as Obsidian shows it: a box titled with a link
    to the note, holding its text (or the heading's section, or the block). The body gets a marker where each
    box's text goes, which is already converted: its links resolve from the embedded note, not this one.
    Returns the body and the text for each marker. An embed inside a line stays a link."""
    if "![[" not in body:
        return body, {}
    out: list[str] = []
    shown: dict[str, str] = {}
    for line, code in regions(body):
        match = None if code or len(shown) >= EMBEDS_A_PAGE else EMBED_LINE.match(line)
        text = _embedded(match.group(2), len(shown) + 1, where) if match else None
        if match is None or text is None:
            out.append(line)
            continue
        lead, inner = match.group(1), match.group(2)
        marker = f"{lead}    walkerembeddednote{len(shown) + 1}x"  # a line of the box's body, for convert too
        shown[marker] = "\n".join(f"{lead}    {t}" if t.strip() else lead.rstrip() for t in text.split("\n"))
        title = inner if "|" in inner.replace("\\|", "|") else f"{inner}|{_label(inner)}"
        out += [lead.rstrip(), f'{lead}!!! quote "[[{title.replace(chr(34), chr(39))}]]"', marker, lead.rstrip()]
    return "\n".join(out), shown


def _embedded(inner: str, number: int, where: Embedding) -> str | None:
    """The text an embed shows, converted for the embedding page; None when it embeds no note of the vault
    (a picture, a file, a note that is gone: the embed stays a link)."""
    target = inner.replace("\\|", "|").partition("|")[0]
    linkpath, subpath = split_subpath(target.strip())
    resolved = where.links.resolver.resolve(linkpath.strip(), where.path).path if linkpath.strip() else where.path
    note = where.corpus.notes.get(resolved or "")
    if note is None or not resolved:
        return None
    text = read_note(where.root, resolved)
    if text is None:
        return None
    lines = text.split("\n")
    if subpath:
        found = find_subpath(note, subpath)
        if found is None:
            return None
        lines = lines[found.line - 1:found.end_line]
    else:
        lines = split_frontmatter(text)[1].split("\n")
    kept = "\n".join(lines[:EMBED_LINES])[:EMBED_CHARS]
    if len(kept) < len("\n".join(lines)):
        kept = kept.rsplit("\n", 1)[0] if "\n" in kept else kept
        kept += "\n\n*The rest is in the note.*"
    if kept.count("```") % 2:
        kept += "\n```"
    markdown = "\n".join(line if code else _DEMOTED.sub(_bold, BLOCK_ID_AT_END.sub("", line))
                         for line, code in regions(kept))
    markdown = STANDALONE_BLOCK_ID.sub("", markdown)  # the note's page has its anchors; this one does not
    shown = as_obsidian_shows(markdown, True, where.links.tag_link, footnote_ids=f"fn-e{number}")
    return where.links.convert(shown, resolved, where.page)


def _bold(heading: re.Match[str]) -> str:
    """An embedded heading as a bold line: it must not join the page's headings, ids and table of contents."""
    return f"{heading.group(1)}**{heading.group(2)}**" if heading.group(2).strip() else heading.group(1)
