"""Build the read-only Corpus of a vault: enumerate, parse (cached, in parallel), resolve."""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import marshal
import multiprocessing
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from walker import safefile
from walker.config import Settings, cache_dir, load_settings
from walker.corpus.cache import Entry, ParseCache, loads, stored_paragraphs
from walker.corpus.model import Corpus, ParsedNote, Skipped, VaultFile
from walker.corpus.parse import BinaryFileError, decode, parse_note
from walker.corpus.resolve import Resolver, find_subpath
from walker.corpus.scan import list_vault
from walker.corpus.text import Paragraph, paragraphs_of, read_paragraphs
from walker.errors import VaultNotFound

Progress = Callable[[int, int], None]
_new = tuple.__new__  # (files just done, files in all)
PARALLEL_THRESHOLD = 256  # below this many files to parse, a process pool costs more than it saves


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building a vault's worth of small acyclic records.

    A large vault means hundreds of thousands of tuples; the collector would walk them all again
    and again while they are created, doubling the load time, and none of them can form a cycle.
    Afterwards they are frozen out of the collector's sight, so later work does not pay for them.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def load_corpus(
    vault: Path | str,
    settings: Settings | None = None,
    *,
    use_cache: bool = True,
    progress: Progress | None = None,
) -> Corpus:
    """Read a vault into a Corpus. Never writes to the vault; bad files become warnings or skips."""
    with _gc_paused():
        return _load(vault, settings, use_cache, progress)


def _load(vault: Path | str, settings: Settings | None, use_cache: bool, progress: Progress | None) -> Corpus:
    started = time.perf_counter()
    root = Path(vault)
    if not root.is_dir():
        raise VaultNotFound(f"{root}: no such folder. Pass the vault folder, or set WALKER_VAULT.")
    settings = settings or load_settings(root)
    listing = list_vault(root, settings)
    corpus_notes = [f for f in listing.files if f.is_note and f.in_corpus]

    cache = ParseCache(cache_dir(), root, f"comments={settings.index_comments}|max_mb={settings.max_note_mb!r}") if use_cache else None
    entries, to_parse = _cached_entries(cache, corpus_notes)
    hits = len(entries)
    report = (lambda done: progress(done, len(corpus_notes))) if progress else None
    if report:
        report(hits)
    parsed = _parse_all(to_parse, settings, report)
    fresh = {p: entry for p, (entry, _) in parsed.items()}
    entries.update(fresh)
    notes = {p: e for p, e in entries.items() if isinstance(e, ParsedNote)}
    if cache:
        by_path = {f.path: f for f in to_parse}
        cache.store(
            {p: (by_path[p].mtime_ns, by_path[p].size, e) for p, e in fresh.items()},
            keep={f.path for f in corpus_notes},
            paragraphs={p: paragraphs for p, (_, paragraphs) in parsed.items() if paragraphs is not None},
        )
    resolutions = _resolve_cached(cache, notes, [f.path for f in listing.files],
                                  {f.path: (f.mtime_ns, f.size) for f in corpus_notes})
    skipped = list(listing.skipped) + [Skipped(p, e) for p, e in entries.items() if isinstance(e, str)]
    skipped += [Skipped(p, f"excluded: {why}") for p, why in listing.excluded.items()]
    warnings = [(n.path, w) for n in notes.values() for w in n.warnings] + list(listing.warnings)
    return Corpus(
        root=str(root),
        cache_file=str(cache.path) if cache else None,
        files=listing.files,
        notes=dict(sorted(notes.items())),
        resolutions=resolutions,
        skipped=tuple(sorted(skipped, key=lambda s: s.path)),
        warnings=tuple(sorted(warnings)),
        stats={
            "seconds": round(time.perf_counter() - started, 3),
            "cache_hits": hits,
            "parsed": len(fresh),
        },
    )


def _cached_entries(cache: ParseCache | None, files: list[VaultFile]) -> tuple[dict[str, Entry], list[VaultFile]]:
    """What the cache still knows of these files (unchanged since it was stored), and the files to parse."""
    cached = cache.load() if cache else {}
    entries: dict[str, Entry] = {}
    to_parse: list[VaultFile] = []
    for file in files:
        row = cached.get(file.path)
        if row and row[0] == file.mtime_ns and row[1] == file.size:
            entries[file.path] = loads(file.path, row[2])
        else:
            to_parse.append(file)
    return entries, to_parse


def _resolve_cached(cache: ParseCache | None, notes: dict[str, ParsedNote], paths: list[str],
                    stamps: dict[str, tuple[int, int]]) -> dict[str, list[Any]]:
    """Where every note's links lead, reusing what the cache learned for this exact set of paths; closes
    the cache."""
    digest = hashlib.sha1("\n".join(paths).encode()).hexdigest()
    known = {}
    if cache:
        known = {p: marshal.loads(data) for p, (mtime, size, data) in cache.load_resolutions(digest).items()
                 if stamps.get(p) == (mtime, size)}
    resolutions, learned = resolve_links(notes, paths, known)
    if cache:
        if learned:
            cache.store_resolutions(digest, {p: (*stamps[p], data) for p, data in learned.items()})
        cache.close()
    return resolutions


def resolve_links(
    notes: dict[str, ParsedNote], paths: list[str], known: dict[str, list[Any]] | None = None
) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Where every note's links lead (path -> [(resolved, candidates), …], in link order), and
    which of those were not already in ``known``."""
    resolver = Resolver(paths)
    known = known or {}
    resolutions: dict[str, list[Any]] = {}
    learned: dict[str, list[Any]] = {}
    for note in notes.values():
        cached = known.get(note.path)
        if cached is None or len(cached) != len(note.links):
            found = [resolver.resolve(raw.linkpath, note.path) for raw in note.links]
            cached = learned[note.path] = [(r.path, r.candidates) for r in found]
        resolutions[note.path] = cached
    return resolutions, learned


def broken_subpaths(corpus: Corpus) -> list[tuple[str, str]]:
    """Links that reach a note but name a heading or block it does not have, as warnings."""
    warnings = []
    for link in corpus.links:
        target = corpus.notes.get(link.resolved or "")
        if link.subpath and target is not None and find_subpath(target, link.subpath) is None:
            warnings.append((link.source, f"line {link.line}: {link.target!r} names a heading or block that "
                                          f"{target.path} does not have"))
    return warnings


def note_paragraphs(corpus: Corpus) -> dict[str, list[Paragraph]]:
    """Every note's paragraphs: as the parse read them (stored with its rows), else read from the file."""
    stored: dict[str, list[Paragraph]] = {}
    if corpus.cache_file and Path(corpus.cache_file).is_file():
        stamps = {f.path: (f.mtime_ns, f.size) for f in corpus.files if f.path in corpus.notes}
        try:
            stored = stored_paragraphs(Path(corpus.cache_file), stamps)
        except sqlite3.Error:
            stored = {}  # a damaged cache is read around, never trusted
    return {p: stored[p] if p in stored else read_paragraphs(corpus.root, note) for p, note in corpus.notes.items()}


Parsed = tuple[Entry, list[Paragraph] | None]  # what a file holds, and its paragraphs when it is a note


def _parse_all(
    files: list[VaultFile], settings: Settings, progress: Callable[[int], None] | None
) -> dict[str, Parsed]:
    jobs = [(f.abspath, f.path, f.size, settings.max_note_mb, settings.index_comments) for f in files]
    workers = settings.workers or os.cpu_count() or 1
    results: dict[str, Parsed] = {}
    if len(jobs) < PARALLEL_THRESHOLD or workers == 1:
        for job in jobs:
            results[job[1]] = read_and_parse(*job)
            if progress:
                progress(1)
        return results
    context = _worker_context()
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        chunk = max(16, len(jobs) // (workers * 8))
        for (_, path, *_rest), parsed in zip(jobs, pool.map(_parse_job, jobs, chunksize=chunk)):
            results[path] = parsed
            if progress:
                progress(1)
    return results


def _worker_context() -> multiprocessing.context.BaseContext:
    """How the parse workers start. Forking is fastest and works for any caller, but forking a process that
    has loaded numpy leaves OpenBLAS's threads in a state where the parent's next large linear-algebra
    call can wait forever (a first walk on 6,000 notes hung in the index's SVD). Such a process gets its
    workers from a fork server instead, which has loaded the parser once and nothing else."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and "numpy" not in sys.modules and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        context.set_forkserver_preload(["walker.corpus.load"])
    return context


def _parse_job(job: tuple[str, str, int, float, bool]) -> Parsed:
    return read_and_parse(*job)


def read_and_parse(abspath: str, path: str, size: int, max_mb: float, index_comments: bool) -> Parsed:
    """Parse one file, or say in a few words why it was skipped. Never raises on bad content.

    The note's paragraphs (the text the TF-IDF index and the quotes are made of) come from the same
    read, so a first walk never reads a file twice."""
    limit = int(max_mb * 1024 * 1024)
    if size > limit:
        return f"too large to parse ({size / 1048576:.1f} MB > max_note_mb = {max_mb:g}); still linkable", None
    try:
        # abspath is a regular file (scan listed a symlink at its target): a FIFO or a device put there
        # since, or a file grown past the cap, is refused rather than read
        raw = safefile.read_bytes(abspath, limit)
        text, warnings = decode(raw)
    except BinaryFileError as exc:
        return str(exc), None
    except safefile.TooLarge:
        return f"too large to parse (grew past max_note_mb = {max_mb:g} since the scan); still linkable", None
    except safefile.NotAFile as exc:
        return f"{exc.strerror}, changed since the scan; never opened", None
    except OSError as exc:
        return f"unreadable: {exc.strerror or exc}", None
    note = parse_note(path, text, index_comments=index_comments)
    if warnings:
        note = dataclasses.replace(note, warnings=tuple(warnings) + note.warnings)
    return note, paragraphs_of(text, note)
