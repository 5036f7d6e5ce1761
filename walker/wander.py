"""Seeds and neighbourhoods: the raw material of one walk (protocol §11.2, §11.3).

Near is close in the graph and in words: notes within two links, and notes close
in words that no chain of two links reaches (where a missing link is found; up to
half of near). Middle is related but not the same thing. Far is distant *relative
to this seed* (real vaults are a few hops across) and outside its tags and
folder; most far draws follow a thin thread of rare words both notes use, the
literature-based-discovery pattern, and at least one is drawn uniformly at
random: the protocol's low prior.

Hubs (maps of content, indexes) would put every note two hops from every
other, so they are kept out of distances: a note is a hub when its degree is
at least ``hub_min_degree`` and at least ``hub_factor`` times the mean degree,
or when ``walker.toml`` lists it under ``hubs``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import PurePosixPath

import numpy as np

from walker.config import between
from walker.corpus.model import Corpus, ParsedNote
from walker.corpus.text import Paragraph, is_proposition, sentences
from walker.errors import WalkerError
from walker.graph import Adjacency, shortest_distances
from walker.sensitive import sensitive_inference
from walker.similarity import TextIndex
from walker.words import has_cjk, tokens, word_count

NEAR_DUPLICATE = 0.6
CLOSE = 0.1  # an unlinked note this similar to the seed is close in words: a near item
MIN_NOTES = 20


class WanderError(WalkerError):
    """The vault cannot give this seed a neighbourhood (too small, unknown note, no links)."""


@dataclass(frozen=True)
class WanderSettings:
    # The top of the protocol's ranges (near and middle 5 to 10, far 3 to 5): on the docs vault, 30 walks kept
    # 8 useful and 2 shallow records at these sizes, 5 and 2 at 8, 7 and 4 (bench/README.md, walk quality).
    near: int = between(10, 0, 100)
    middle: int = between(10, 0, 100)
    far: int = between(5, 0, 100)
    hub_factor: float = between(5.0, 1.0, 1000.0)
    hub_min_degree: int = between(10, 1, 1_000_000)
    hubs: tuple[str, ...] = ()
    recent_days: int = between(30, 1, 36500)
    forgotten_days: int = between(90, 1, 36500)
    no_reuse_walks: int = between(8, 0, 10000)



@dataclass(frozen=True)
class Item:
    """One retrieved note (or its best section), with why it was chosen."""

    path: str
    ref: str
    group: str
    distance: int | None  # None: not reachable from the seed without hubs
    similarity: float
    shared_tags: tuple[str, ...]
    reason: str
    rare_terms: tuple[str, ...] = ()
    via: str | None = None  # a note linked to both the seed and this item

    def as_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["shared_tags"] = list(self.shared_tags)
        data["rare_terms"] = list(self.rare_terms)
        return data


@dataclass(frozen=True)
class Seed:
    path: str
    proposition: str
    ref: str
    source: str
    reason: str
    score: float = 0.0

    def as_dict(self) -> dict[str, object]:
        """The seed as run records, JSON output and `walker seeds` write it."""
        return {"path": self.path, "proposition": self.proposition, "ref": self.ref, "source": self.source,
                "reason": self.reason, "score": round(self.score, 4)}


@dataclass(frozen=True)
class Neighbourhood:
    seed: Seed
    near: tuple[Item, ...]
    middle: tuple[Item, ...]
    far: tuple[Item, ...]
    hubs: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())  # messages for the reader: why a group is short

    @property
    def items(self) -> tuple[Item, ...]:
        return self.near + self.middle + self.far

    def as_dict(self) -> dict[str, object]:
        return {
            "seed": self.seed.as_dict(),
            "near": [i.as_dict() for i in self.near],
            "middle": [i.as_dict() for i in self.middle],
            "far": [i.as_dict() for i in self.far],
            "hubs": list(self.hubs),
            "notes": list(self.notes),
        }


# --- the graph side -----------------------------------------------------------


def find_hubs(links: Adjacency, settings: WanderSettings) -> set[str]:
    degrees = {n: len(linked) for n, linked in links.items()}
    if not degrees:
        return set()
    mean = sum(degrees.values()) / len(degrees)
    threshold = max(settings.hub_min_degree, settings.hub_factor * mean)
    return {n for n, d in degrees.items() if d >= threshold} | (set(settings.hubs) & set(degrees))


# --- refs and propositions ----------------------------------------------------


def section_ref(note: ParsedNote, section_index: int) -> str:
    section = note.sections[section_index] if note.sections else None
    if section is None:
        return note.path
    if section.heading:
        return f"{note.path}#{section.heading}"
    return f"{note.path}#L{section.line}-L{section.end_line}"


def paragraph_ref(note: ParsedNote, paragraph: Paragraph) -> str:
    """The smallest stable anchor for a paragraph: its block id, else its heading, else its lines."""
    if paragraph.block_id:
        return f"{note.path}#^{paragraph.block_id}"
    heading = next((h for h in reversed(note.headings) if h.line <= paragraph.line <= h.end_line), None)
    # A heading's text opens its first heading of that text, in Obsidian as here: a later namesake gets lines.
    first = heading is not None and next(h for h in note.headings if h.text == heading.text) is heading
    if heading is not None and first and paragraph.end_line <= next(
        (s.end_line for s in note.sections if s.line == heading.line), heading.end_line
    ):
        return f"{note.path}#{heading.text}"
    return f"{note.path}#L{paragraph.line}-L{paragraph.end_line}"


MAX_SENTENCES = 400  # sentences of one note weighed for its central one: Chinese is segmented at ~0.5 ms a sentence
MAX_WORDS = 45  # the longest sentence that states what a note is about


def central_sentence(index: TextIndex, path: str, paragraphs: list[Paragraph]) -> tuple[str, Paragraph] | None:
    """The sentence that best states what the note is about: most of its key words, and a statement rather than a
    question unless the note only asks (a note of open questions is about what it asks)."""
    weights = index.term_weights(path)
    title = PurePosixPath(path).stem
    best: dict[bool, tuple[float, str, Paragraph]] = {}  # by whether the sentence asks
    read = 0
    for position, paragraph in enumerate(paragraphs):
        if not paragraph.prose:
            continue
        for sentence in sentences(paragraph.text):
            read += 1
            if read > MAX_SENTENCES:  # a note's point is made early; a huge one is read this far, in bounded time
                break
            if word_count(sentence) > 2 * MAX_WORDS:  # (a loose bound: counting is cheap, segmenting is not)
                continue  # no sentence to quote; and segmenting one run of 600,000 Chinese characters takes seconds
            words = tokens(sentence)
            if not words:  # only kana or particles ("それはとてもおもしろいことだとおもう"): no key word to weigh
                continue
            # Chinese is counted by its characters (word_count), which is_proposition bounds from below.
            length = word_count(sentence) if has_cjk(sentence) else len(words)
            if not (has_cjk(sentence) or 8 <= length) or length > MAX_WORDS or not is_proposition(sentence, title):
                continue
            if sensitive_inference(sentence):  # what a note says of a person's health or faith seeds nothing
                continue
            # Key words per word, so long sentences do not win by length; authors mark what matters with ^ids.
            score = sum(weights.get(w, 0.0) for w in set(words)) / len(words) ** 0.5
            score *= 1.3 if paragraph.block_id else 1.0
            score -= 0.001 * position
            asks = sentence.endswith(("?", "？"))
            if asks not in best or score > best[asks][0]:
                best[asks] = (score, sentence, paragraph)
        if read > MAX_SENTENCES:
            break
    found = best.get(False) or best.get(True)
    return (found[1], found[2]) if found else None


def propose(index: TextIndex, note: ParsedNote) -> tuple[str, str]:
    """A seed proposition (a sentence from the note) and the ref of its paragraph."""
    found = central_sentence(index, note.path, index.paragraphs.get(note.path, []))
    if found is None:
        return note.title, note.path
    sentence, paragraph = found
    return sentence, paragraph_ref(note, paragraph)


# --- neighbourhood ------------------------------------------------------------


def neighbourhood(
    corpus: Corpus,
    index: TextIndex,
    links: Adjacency,
    seed: Seed,
    settings: WanderSettings = WanderSettings(),
    random_seed: int = 0,
) -> Neighbourhood:
    """Near, middle and far items for one seed note. Deterministic for a given ``random_seed``."""
    _check_walkable(corpus, seed)
    rng = random.Random(random_seed)
    hubs = find_hubs(links, settings) - {seed.path}
    distance = shortest_distances(links, seed.path, hubs)
    similarity = dict(zip(index.paths, index.similarity(seed.path).tolist()))
    seed_note = corpus.notes[seed.path]
    seed_tags = {t.lower() for t in seed_note.tags}

    sharing = {p for p, n in corpus.notes.items() if n.tags and any(t.lower() in seed_tags for t in n.tags)} \
        if seed_tags else set()

    seed_folder = folder_of(seed.path)
    query = index.notes[index.row[seed.path]]

    def make(path: str, group: str, reason: str, rare: tuple[str, ...] = (), via: str | None = None) -> Item:
        note = corpus.notes[path]
        shared = tuple(sorted(seed_tags & {t.lower() for t in note.tags}))
        return Item(path, section_ref(note, index.best_section(path, query)), group, distance.get(path),
                    round(similarity[path], 4), shared, reason, rare, via)

    others = [p for p in corpus.notes if p != seed.path and p not in hubs]

    def closest(paths: Iterable[str]) -> list[str]:
        return sorted(paths, key=lambda p: (-similarity[p], p))

    linked = closest(p for p in others if distance.get(p) in (1, 2))
    close = closest(p for p in others if distance.get(p) not in (1, 2) and CLOSE <= similarity[p])
    close = close[: max(settings.near // 2, settings.near - len(linked))]  # half of near, or what links leave
    linked = linked[: settings.near - len(close)]
    near = [make(p, "near", _why(distance.get(p), similarity[p])) for p in closest(linked + close)]
    taken = {i.path for i in near}

    middle_pool = _middle_pool([p for p in others if p not in taken], similarity,
                               lambda p: p in sharing or folder_of(p) == seed_folder or distance.get(p) in (2, 3))
    middle = [make(p, "middle", _why(distance.get(p), similarity[p])) for p in middle_pool[: settings.middle]]
    taken |= {i.path for i in middle}

    reachable = [d for p, d in distance.items() if p != seed.path]
    cutoff = max(3, math.ceil(float(np.percentile(reachable, 75)))) if reachable else 3
    far_pool = [p for p in others if p not in taken and p not in sharing
                and _far_enough(p, distance, cutoff, seed_folder, similarity)]
    far = [make(p, "far", reason, rare, via) for p, reason, rare, via in
           _draw_far(far_pool, seed.path, index, links, hubs, distance, cutoff, settings.far, rng)]
    return Neighbourhood(seed, tuple(near), tuple(middle), tuple(far), tuple(sorted(hubs)),
                         _short_groups(near, far, links, settings))


def _far_enough(path: str, distance: dict[str, int], cutoff: int, seed_folder: str, similarity: dict[str, float]) -> bool:
    """Unconnected or at least ``cutoff`` links away, outside the seed's folder, and not a copy of it."""
    return ((distance.get(path) is None or distance[path] >= cutoff) and not _inside(folder_of(path), seed_folder)
            and similarity[path] < NEAR_DUPLICATE)


def _check_walkable(corpus: Corpus, seed: Seed) -> None:
    if seed.path not in corpus.notes:
        raise WanderError(f"{seed.path}: not a note in this vault's corpus. `walker scan` lists what walker reads.")
    if len(corpus.notes) < MIN_NOTES:
        raise WanderError(
            f"the vault has {len(corpus.notes)} notes; a walk needs at least {MIN_NOTES} to find near, middle "
            "and far neighbours. Write a few more notes, or point walker at a bigger vault."
        )


def _middle_pool(candidates: list[str], similarity: dict[str, float], related: Callable[[str], bool]) -> list[str]:
    """Notes related to the seed (a shared tag, its folder, two or three links away), neither copies of it
    nor strangers: the ones whose similarity sits nearest the middle of the band come first."""
    pool = [p for p in candidates if similarity[p] < NEAR_DUPLICATE and related(p)]
    band = [similarity[p] for p in pool if similarity[p] > 0]
    centre = float(np.median(band)) if band else 0.0
    return sorted(pool, key=lambda p: (abs(similarity[p] - centre), p))


def _short_groups(near: list[Item], far: list[Item], links: Adjacency, settings: WanderSettings) -> tuple[str, ...]:
    """Messages for the reader when a group came out short, and why."""
    messages = []
    if len(near) < min(5, settings.near):
        messages.append(f"only {len(near)} near items: the seed has few notes within two links or close in words")
    if not far:
        messages.append("no far items: every other note shares the seed's tags or folder, or sits close to it")
    if not any(links.values()):
        messages.append("the vault has no links between notes, so near items are only notes close in words")
    return tuple(messages)


def _draw_far(
    pool: list[str],
    seed: str,
    index: TextIndex,
    links: Adjacency,
    hubs: set[str],
    distance: dict[str, int],
    cutoff: int,
    size: int,
    rng: random.Random,
) -> list[tuple[str, str, tuple[str, ...], str | None]]:
    """Most draws weighted by a thread of shared rare words; the last one uniformly random."""
    if not pool or size <= 0:
        return []
    pool = sorted(pool)
    thread = _thread_strength(index, seed, pool)
    weighted = [p for p in pool if thread[p] > 0]
    chosen: list[str] = []
    while weighted and len(chosen) < size - 1:
        pick = rng.choices(weighted, weights=[thread[p] for p in weighted])[0]
        chosen.append(pick)
        weighted.remove(pick)
    rest = [p for p in pool if p not in chosen]
    while rest and len(chosen) < size:
        pick = rest[rng.randrange(len(rest))]
        chosen.append(pick)
        rest.remove(pick)
    out = []
    for number, path in enumerate(chosen):
        rare = tuple(index.shared_rare_terms(seed, path))
        via = shared_neighbour(links, seed, path, hubs)
        where = "not connected to the seed" if distance.get(path) is None else f"{distance[path]} links away (far is ≥ {cutoff} for this seed)"
        draw = "uniform draw (low prior)" if number == len(chosen) - 1 and len(chosen) == size else "weighted by shared rare words"
        thread_text = f"thread: {', '.join(rare)}" if rare else "no shared rare words"
        via_text = f"; both linked with {via}" if via else ""
        out.append((path, f"{where}; {draw}; {thread_text}{via_text}", rare, via))
    return out


def _thread_strength(index: TextIndex, seed: str, pool: list[str]) -> dict[str, float]:
    if index.notes.shape[1] == 0:
        return dict.fromkeys(pool, 0.0)
    vector = index.notes[index.row[seed]].tocsr().copy()
    vector.data[~index.rare[vector.indices]] = 0
    rows = [index.row[p] for p in pool]
    scores = np.asarray((index.notes[rows] @ vector.T).todense()).ravel()
    return {p: float(s) for p, s in zip(pool, scores)}


def shared_neighbour(links: Adjacency, a: str, b: str, hubs: set[str]) -> str | None:
    """A note linked with both (the literature-based-discovery "B" term), hubs aside."""
    common = sorted((links.get(a, set()) & links.get(b, set())) - hubs - {a, b})
    return common[0] if common else None


def _why(distance: int | None, similarity: float) -> str:
    hops = "not linked" if distance is None else "linked directly" if distance == 1 else f"{distance} links away"
    return f"{hops}; similarity {similarity:.2f}"


def folder_of(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _inside(folder: str, parent: str) -> bool:
    return folder == parent or (parent != "" and folder.startswith(parent + "/"))
