"""One Ref: how records point into notes, parsed and resolved the same way by every consumer."""

from pathlib import Path

import pytest

from walker.corpus.resolve import span
from walker.pool.store import StoredRecord
from walker.refs import Ref, note_of, split_subpath
from walker.site.recordpage import dead_refs
from walker.walk.critic import CriticContext
from walker.workspace import Workspace


@pytest.mark.parametrize("text, path, anchor, lines, block", [
    ("Garden/Soil.md", "Garden/Soil.md", "", None, None),
    ("Garden/Soil.md#Feeding it", "Garden/Soil.md", "Feeding it", None, None),
    ("Garden/Soil.md#Feeding it#More", "Garden/Soil.md", "Feeding it#More", None, None),
    ("Garden/Soil.md#^aggregates", "Garden/Soil.md", "^aggregates", None, "aggregates"),
    ("Garden/Soil.md#L3", "Garden/Soil.md", "L3", (3, 3), None),
    ("Garden/Soil.md#L3-L9", "Garden/Soil.md", "L3-L9", (3, 9), None),
])
def test_a_ref_reads_and_writes_back(text, path, anchor, lines, block):
    ref = Ref.parse(text)
    assert (ref.path, ref.anchor, ref.lines, ref.block) == (path, anchor, lines, block)
    assert str(ref) == text and note_of(text) == path and ref.title == "Soil"


def test_a_link_target_splits_like_a_ref():
    assert split_subpath("Soil#Feeding it") == ("Soil", "#Feeding it")
    assert split_subpath("Soil") == ("Soil", None)


@pytest.fixture(scope="module")
def ws(sample_vault):
    return Workspace.open(sample_vault)


@pytest.mark.parametrize("ref, alive", [
    ("Systems/Backpressure.md", True),
    ("Systems/Backpressure.md#^never-faster", True),
    ("Systems/Backpressure.md#The rule", True),
    ("Systems/Backpressure.md#L15", True),
    ("Systems/Backpressure.md#L1-L9999", False),  # past the note's end
    ("Systems/Backpressure.md#L0", False),
    ("Systems/Backpressure.md#^no-such-block", False),
    ("Systems/Backpressure.md#No such heading", False),
    ("Systems/Gone.md", False),
])
def test_the_critic_check_and_site_agree_on_what_a_ref_opens(ws, ref, alive):
    critic = CriticContext(ws.corpus, ws.index, set())
    note = ws.corpus.notes.get(Ref.parse(ref).path)
    assert (note is not None and span(Ref.parse(ref), note) is not None) == alive
    assert (critic.ref_text(ref) is not None) == alive  # the critic, and `walker check` through it

    record = StoredRecord(Path("hyp-2026-12-01-001.md"), "active", {"supporting_refs": [ref]}, "")
    assert (dead_refs(record, ws.corpus) == []) == alive  # the review site


def test_only_the_ref_module_splits_refs():
    root = Path(__file__).resolve().parent.parent / "walker"
    splitting = [p.relative_to(root).as_posix() for p in root.rglob("*.py") if 'partition("#")' in p.read_text()]
    assert splitting == ["refs.py"]

