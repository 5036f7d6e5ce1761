"""`walker critique`: the gate on candidates written by hand or by another engine, for audit and tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from walker import safefile
from walker.errors import WalkerError
from walker.refs import note_of
from walker.safeyaml import refuse_aliases
from walker.walk.candidate import Candidate
from walker.walk.critic import CriticContext, PoolClaim, gate
from walker.workspace import Workspace


class BadCandidates(WalkerError):
    """The candidates file is not a YAML list of records."""


def critique_file(ws: Workspace, file: Path) -> list[dict[str, Any]]:
    """Verdicts for every candidate in a YAML file; the notes they cite count as retrieved."""
    try:
        text = safefile.read_text(file, safefile.REPORT_LIMIT, follow=True)
        refuse_aliases(text)
        data = yaml.safe_load(text)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise BadCandidates(f"{file}: cannot read candidates: {exc}") from exc
    if isinstance(data, dict) and "candidates" in data:
        data = data["candidates"]
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise BadCandidates(f"{file}: expected a YAML list of candidate records (claim, supporting_refs, …)")
    candidates = [Candidate.from_dict(item) for item in data]
    retrieved = {note_of(ref) for c in candidates for ref in c.supporting_refs}
    pool = [PoolClaim(r.id, r.record.status, r.record.claim, r.record.supporting_refs, r.record.passages)
            for r in ws.pool.records("active", "rejected")]
    verdicts = gate(candidates, CriticContext(ws.corpus, ws.index, retrieved, pool))
    return [{"id": str(item.get("id") or f"candidate-{n + 1}"), **verdict.as_dict()}
            for n, (item, verdict) in enumerate(zip(data, verdicts))]
