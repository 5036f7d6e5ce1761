"""Where a walk starts: seed candidates from four sources (recent, revisited, open question, forgotten),
and the choice among them that rotates the sources and avoids the last walks' seeds."""

from __future__ import annotations

import random
from collections.abc import Collection
from datetime import date, datetime

from walker.corpus.model import Corpus, ParsedNote
from walker.daily import daily_date_of_path
from walker.graph import Adjacency
from walker.similarity import TextIndex, paragraph_key
from walker.wander import Seed, WanderSettings, central_sentence, find_hubs, folder_of, paragraph_ref

SEED_SOURCES = ("recent", "revisited", "open-question", "forgotten")
PARTNER_WORDS = 3  # rare words another note must share with a seed to count as something a walk from it may find


def candidate_seeds(
    corpus: Corpus,
    index: TextIndex,
    links: Adjacency,
    now: datetime,
    settings: WanderSettings | None = None,
    limit: int = 5,
    rng: random.Random | None = None,
) -> dict[str, list[Seed]]:
    """Seed candidates from each of the four sources, best first, each with its reason. Candidates that
    score the same come in ``rng``'s order (a walk's), else by path (a listing)."""
    settings = settings or WanderSettings()
    hubs = find_hubs(links, settings)
    today = now.date()
    dailies = {p: d for p in corpus.notes if (d := daily_date_of_path(p))}
    eligible = [p for p in corpus.notes if p not in hubs and p not in dailies]
    mentions, backlink_folders = _mentions(corpus, dailies)
    mtimes = _meaningful_mtimes({f.path: f.mtime_ns for f in corpus.files if f.path in corpus.notes})

    def seed(path: str, source: str, reason: str, score: float) -> tuple[float, str, str, str]:
        return (round(score, 3), path, source, reason)

    recent: list[tuple[float, str, str, str]] = []
    revisited: list[tuple[float, str, str, str]] = []
    questions: list[tuple[float, str, str, str]] = []
    forgotten: list[tuple[float, str, str, str]] = []
    for path in eligible:
        note = corpus.notes[path]
        days = [(today - d).days for d in mentions.get(path, [])]
        in_window = [d for d in days if 0 <= d <= settings.recent_days]
        touched = note_date(note, mtimes.get(path))
        age = (today - touched).days if touched else None
        if age is not None and age < 0:
            age = None  # worked on after --now: not "recent" or "forgotten" as of then
        if in_window or (age is not None and 0 <= age <= settings.recent_days):
            recent.append(seed(path, "recent", *_recent(len(in_window), age, settings.recent_days)))
        dates = set(mentions.get(path, []))
        folders = backlink_folders.get(path, set())
        if len(dates) >= 2 or len(folders) >= 3:
            angles = [f"came back in daily notes on {len(dates)} different days"] if len(dates) >= 2 else []
            angles += [f"linked from {len(folders)} different folders"] if len(folders) >= 3 else []
            revisited.append(seed(path, "revisited", " and ".join(angles), len(dates) + len(folders)))
        signals = _open_signals(note)
        if signals:
            questions.append(seed(path, "open-question", "; ".join(signals), len(signals)))
        backlinks = len(links.get(path, ()))
        if backlinks <= 1 and (age is None or age >= settings.forgotten_days):
            forgotten.append(seed(path, "forgotten", *_forgotten(backlinks, age)))
    return {"recent": _best(corpus, index, recent, limit, rng), "revisited": _best(corpus, index, revisited, limit, rng),
            "open-question": _best(corpus, index, questions, limit, rng),
            "forgotten": _best(corpus, index, forgotten, max(limit, 10), rng, drawn=True)}


def _recent(mentions: int, age: int | None, window: int) -> tuple[str, float]:
    count = f"{mentions} daily note{'' if mentions == 1 else 's'}"
    edited = age is not None and age <= window
    return (f"mentioned in {count} in the last {window} days" + (f", edited {age} days ago" if edited else ""),
            2 * mentions + (1 if edited else 0))


def _forgotten(backlinks: int, age: int | None) -> tuple[str, float]:
    if age is None:  # no date says when it was last read: its few links say nobody comes back to it
        return f"{backlinks} links and no date known", 1 / (1 + backlinks)
    return f"untouched for {age} days, {backlinks} links", age / (1 + backlinks)


def _mentions(corpus: Corpus, dailies: dict[str, date]) -> tuple[dict[str, list[date]], dict[str, set[str]]]:
    """For each note: the days daily notes link to it, and the folders its backlinks come from."""
    mentions: dict[str, list[date]] = {}
    backlink_folders: dict[str, set[str]] = {}
    for source, resolved in corpus.resolutions.items():
        for target, _ in resolved:
            if target is not None and target in corpus.notes and target != source:
                backlink_folders.setdefault(target, set()).add(folder_of(source))
                if source in dailies:
                    mentions.setdefault(target, []).append(dailies[source])
    return mentions, backlink_folders


def _best(corpus: Corpus, index: TextIndex, group: list[tuple[float, str, str, str]], count: int,
          rng: random.Random | None, drawn: bool = False) -> list[Seed]:
    """The best ``count`` of one source that have a sentence worth quoting, in a paragraph of their own (not one
    copied into other notes). A note with only links, properties, comments or stock text is not a seed.
    Ties are cut in ``rng``'s order (by path, a vault of many unlinked notes would only ever offer its
    alphabetically first folders as forgotten), weighted by how much prose each note holds.

    Of notes the source scores alike, the one that gives a walk more to find comes first: more partners, other notes
    using ``PARTNER_WORDS`` of its rare words. In a source that is ``drawn`` at random (forgotten notes), the best
    are the notes with the most partners among ten times ``count`` of its best. On the dev vaults, a walk from a seed
    in the top quarter of its vault by partners kept three times the useful records of one from the bottom quarter,
    in much the same shares (bench/README.md, walk quality)."""
    ordered = sorted(group, key=lambda s: s[1])
    if rng is not None:
        # A weighted shuffle (Efraimidis and Spirakis: a uniform draw raised to 1/weight). A walk from a
        # one-sentence fixture seldom has anything to pair, so a note that says more comes first more often.
        keys = {path: rng.random() ** (1 / max(index.prose.get(path, 0), 0.1)) for _, path, _, _ in ordered}
        ordered.sort(key=lambda s: keys[s[1]], reverse=True)
    best = sorted(ordered, key=lambda s: -s[0])[: 10 * count]
    partners = index.partners([path for _, path, _, _ in best], PARTNER_WORDS)
    order = (lambda s: -partners[s[1]]) if drawn else (lambda s: (-s[0], -partners[s[1]]))
    chosen = []
    for score, path, source, reason in sorted(best, key=order):
        own = [p for p in index.paragraphs.get(path, []) if paragraph_key(p.text) not in index.copied]
        found = central_sentence(index, path, own)
        if found:
            reason += f"; {_partners(partners[path])}"
            chosen.append(Seed(path, found[0], paragraph_ref(corpus.notes[path], found[1]), source, reason, score))
        if len(chosen) >= count:
            break
    return chosen


def _partners(count: int) -> str:
    return f"{count} other note{' uses' if count == 1 else 's use'} {PARTNER_WORDS} of its rare words"


def choose_seed(candidates: dict[str, list[Seed]], walk_number: int, used: Collection[str], rng: random.Random) -> Seed | None:
    """Rotate by walk number through the sources that have a seed not used recently. An empty source
    gives its turn to the next in the rotation, not always to its neighbour (which would walk twice as often)."""
    fresh = {source: [s for s in candidates.get(source, []) if s.path not in used] for source in SEED_SOURCES}
    ready = [source for source in SEED_SOURCES if fresh[source]]
    if not ready:
        return None
    source = ready[walk_number % len(ready)]
    # Forgotten notes are drawn at random; in the other sources the first wins (``_best`` put the notes that give a
    # walk the most to find first).
    return fresh[source][rng.randrange(len(fresh[source]))] if source == "forgotten" else fresh[source][0]


def _open_signals(note: ParsedNote) -> list[str]:
    signals = []
    questions = [h.text for h in note.headings if h.text.rstrip().endswith(("?", "？"))]
    if questions:
        signals.append(f"asks {questions[0]!r}")
    if any(t.lower() == "question" for t in note.tags):
        signals.append("tagged #question")
    if str(note.frontmatter.get("status", "")).lower() == "open":
        signals.append("status: open")
    open_tasks = note.open_tasks
    if open_tasks:
        signals.append(f"{open_tasks} unchecked task{'s' if open_tasks > 1 else ''}")
    return signals


def _meaningful_mtimes(mtimes: dict[str, int]) -> dict[str, int]:
    """File times, unless they say nothing: in a fresh clone or copy most notes share one minute, and
    "recent" would follow the alphabet. Then only dates in properties and daily notes count."""
    if len(mtimes) < 10:
        return mtimes
    minutes: dict[int, int] = {}
    for mtime in mtimes.values():
        minutes[mtime // 60_000_000_000] = minutes.get(mtime // 60_000_000_000, 0) + 1
    return {} if max(minutes.values()) >= 0.8 * len(mtimes) else mtimes


def note_date(note: ParsedNote, mtime_ns: int | None) -> date | None:
    """When the note was last worked on: its `updated`/`modified`/`created` property, else its mtime."""
    for key in ("updated", "modified", "created", "date"):
        value = note.frontmatter.get(key)
        if isinstance(value, str):
            try:
                return date.fromisoformat(value[:10])
            except ValueError:
                continue
    return datetime.fromtimestamp(mtime_ns / 1e9).date() if mtime_ns is not None else None
