"""Read-only views of the pool for `walker pool list` and `walker pool show`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from walker.errors import WalkerError
from walker.pool import health
from walker.pool.store import PoolStore


class RecordNotFound(WalkerError):
    """No pool record has the id asked for."""


def list_records(vault: Path | str, status: str | None = None) -> list[dict[str, Any]]:
    rows = []
    for record in PoolStore(vault).records():
        data = record.data
        record_status = str(data.get("status", ""))
        if status and status not in (record_status, record.folder):
            continue
        rows.append({
            "id": record.id,
            "status": record_status,
            "folder": record.folder,
            "title": data.get("title", ""),
            "claim": str(data.get("claim", "")).strip(),
            "confidence": data.get("confidence"),
            "impact": data.get("impact"),
            "created": data.get("created"),
            "supporting_refs": list(data.get("supporting_refs") or []),
            "path": str(record.path),
        })
    return rows


def show_record(vault: Path | str, record_id: str) -> dict[str, Any]:
    for record in PoolStore(vault).records():
        if record.id == record_id or record.path.stem == record_id:
            return {"path": str(record.path), "folder": record.folder, **record.data}
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
