"""Read-only views of the pool for `walker pool list` and `walker pool show`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from walker.errors import WalkerError
from walker.pool import health
from walker.pool.records import Hypothesis
from walker.pool.store import PoolStore


class RecordNotFound(WalkerError):
    """No pool record has the id asked for."""


def list_records(vault: Path | str, status: str | None = None) -> list[dict[str, Any]]:
    rows = []
    for record in PoolStore(vault).records():
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
            "confidence": hypothesis.confidence if hypothesis else None,
            "impact": hypothesis.impact if hypothesis else None,
            "created": rec.created or None,
            "supporting_refs": list(rec.supporting_refs),
            "path": str(record.path),
        })
    return rows


def show_record(vault: Path | str, record_id: str) -> dict[str, Any]:
    for record in PoolStore(vault).records():
        if record.id == record_id or record.path.stem == record_id:
            return {"path": str(record.path), "folder": record.folder, **record.record.as_dict()}
    raise RecordNotFound(f"no record {record_id!r} in {Path(vault) / 'walks'}; `walker pool list` shows the ids")


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
    reports = {report.relative_to(root).as_posix(): re.findall(r"\[\[(hyp-[\w-]+)", report.read_text(encoding="utf-8"))
               for report in sorted((root / "walks" / "reports").glob("*.md"))}
    conclusion_notes = {str(note.frontmatter["id"]): note.path for note in corpus.notes.values()
                        if CONCLUSION_ID.fullmatch(str(note.frontmatter.get("id") or ""))}
    return health.check(PoolStore(root), load_settings(root).inbox_folder, lambda ref: ref_text(corpus, index, ref),
                        reports, conclusion_notes)
