"""Read-only views of the pool for `walker pool list` and `walker pool show`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from walker.pool import health
from walker.pool.recordfile import read_plain_file
from walker.pool.records import Hypothesis
from walker.pool.store import PoolStore
from walker.safefile import REPORT_LIMIT


def list_records(vault: Path | str, status: str | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """The records, one row each, and a warning for each file walker could not read as a record."""
    store = PoolStore(vault)
    rows = []
    for record in store.records():
        rec = record.record
        if status and status not in (rec.status, record.folder):
            continue
        hypothesis = rec if isinstance(rec, Hypothesis) else None
        rows.append({
            "id": record.id,
            "status": rec.status,
            "folder": record.folder,
            "title": rec.title,
            "claim": rec.claim.strip(),
            "kind": getattr(rec, "kind", None) or None,
            "confidence": hypothesis.confidence if hypothesis else None,
            "impact": hypothesis.impact if hypothesis else None,
            "created": rec.created or None,
            "supporting_refs": list(rec.supporting_refs),
            "path": str(record.path),
        })
    return rows, [f"{skipped}; left out (`walker check` lists every such problem)" for skipped in store.skipped.values()]


def show_record(vault: Path | str, record_id: str) -> dict[str, Any]:
    record = PoolStore(vault).find(record_id)
    return {"path": str(record.path), "folder": record.folder, **record.record.as_dict()}


def check_pool(vault: Path | str) -> list[health.Problem]:
    """`walker check`: the pool against its schema, its folders, the vault and its reports."""
    from walker.config import load_settings
    from walker.corpus import load_corpus
    from walker.inbox import CONCLUSION_ID
    from walker.passages import ref_text
    from walker.similarity import load_index

    root = Path(vault)
    corpus = load_corpus(root)
    index = load_index(corpus)
    reports: dict[str, list[str]] = {}
    unreadable = []
    for report in sorted((root / "walks" / "reports").glob("*.md")):
        rel = report.relative_to(root).as_posix()
        try:
            reports[rel] = re.findall(r"\[\[(hyp-[\w-]+)", read_plain_file(report, REPORT_LIMIT))
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
            unreadable.append(health.Problem("unreadable", rel, f"a walk report walker cannot read: {reason}"))
    conclusion_notes: dict[str, list[tuple[str, Any]]] = {}
    for note in corpus.notes.values():
        if CONCLUSION_ID.fullmatch(note_id := str(note.frontmatter.get("id") or "")):
            conclusion_notes.setdefault(note_id, []).append((note.path, note.frontmatter))
    return health.check(PoolStore(root), load_settings(root).inbox_folder, lambda ref: ref_text(corpus, index, ref),
                        reports, conclusion_notes) + unreadable
