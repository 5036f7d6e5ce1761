"""A kind of hypothesis is one module of walker.kinds: adding one touches nothing else."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from walker.kinds import KINDS, UnknownKind, named
from walker.kinds.base import Pair
from walker.walk.kinds import disconfirmed

PACKAGE = Path(__file__).resolve().parent.parent / "walker"

ECHO = '''
"""Echo: two passages that both exclaim (a kind made up by a test)."""

from walker.kinds.base import Kind, Pair


def fits(pair: Pair) -> bool:
    return pair.text_a.endswith("!") and pair.text_b.endswith("!")


KIND = Kind(
    name="echo", label="Echo", plural="Echoes", meaning="two passages that exclaim alike", rank=0,
    fits=fits, disconfirmed=lambda pair: not fits(pair),
    wording={language: {
        "claim": "{A} cries “{text_a}” and {b} cries back “{text_b}”, both about {thread}.",
        "impact": "add", "impact_reason": "{a} and {b} shout about one thing", "why_it_matters": "Loud notes.",
        "applies_when": ("Reading {about_a} aloud.",), "never_applies_when": ("Whispering.",),
        "disconfirm_if": ("One of them stops shouting.",),
    } for language in ("en", "zh")},
    confirmed={"en": ("echo", "{a} and {b} echo each other."), "zh": ("回声", "{a}和{b}互相呼应。")},
)
'''

# What a walk does with a pair, and what the pool, the inbox and the site then read of the record.
CHECK = '''
import sys
from pathlib import Path

from walker.inbox import Conclusion, meaning
from walker.kinds import KINDS
from walker.kinds.base import Pair
from walker.pool.records import KIND_WORDS, validate
from walker.pool.store import PoolStore
from walker.walk.candidate import Candidate, hypothesis_record
from walker.walk.kinds import classify, disconfirmed, word
from walker.walk.sense import thread
from walker.workspace import Workspace

vault = Path(sys.argv[1])
ws = Workspace.open(vault)
a, b = "The sourdough starter doubled overnight!", "The sourdough starter collapsed by noon!"
pair = Pair("Bread", "Starter", a, b, thread(a, b, ws.index, True), same_concept=True, linked=False)
kind = classify(pair)
wording = word(kind, pair, ws.index)
record = hypothesis_record(
    Candidate(claim=wording.claim, supporting_refs=("Bread.md", "Starter.md"), confidence="low", impact=wording.impact,
              impact_reason=wording.impact_reason, applies_when=wording.applies_when,
              never_applies_when=wording.never_applies_when, disconfirm_if=wording.disconfirm_if, kind=kind,
              title="Bread ↔ Starter"),
    id="hyp-2026-12-01-001", created="2026-12-01", seed="s", walk_id="2026-12-01-001", engine="extractive",
    expires_after_walks=12)
PoolStore(vault).write_record("active", record)
(stored,) = PoolStore(vault).records("active")
print(list(KINDS)[0], kind, disconfirmed(kind, pair), stored.record.kind, validate(stored.data), KIND_WORDS[kind][1])
print(stored.record.claim)
print(meaning(Conclusion("2026-12-01", "s", "t", stored.id, ("Bread.md", "Starter.md"), kind=kind), ["[[Bread]]", "[[Starter]]"]))
'''


def test_adding_a_kind_is_one_new_module(tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(PACKAGE, copy / "walker", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "walker" / "kinds" / "echo.py").write_text(textwrap.dedent(ECHO), encoding="utf-8")
    vault = tmp_path / "vault"
    vault.mkdir()
    for name, text in (("Bread", "The sourdough starter doubled overnight!"),
                       ("Starter", "The sourdough starter collapsed by noon!")):
        (vault / f"{name}.md").write_text(f"# {name}\n\n{text}\n", encoding="utf-8")
    # Python without its site hook (-S), so the editable install cannot hand it the real package instead.
    path = os.pathsep.join((str(copy), *site.getsitepackages()))
    done = subprocess.run([sys.executable, "-S", "-c", CHECK, str(vault)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120,
                          env={**os.environ, "PYTHONPATH": path, "WALKER_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    first, claim, confirmed = done.stdout.splitlines()
    assert first == "echo echo False echo [] Echoes"  # tried first, fits, holds, written, valid, labelled
    assert claim == "Bread cries “The sourdough starter doubled overnight!” and Starter cries back “The sourdough " \
                    "starter collapsed by noon!”, both about “sourdough starter”."
    assert confirmed == "**Confirmed echo:** [[Bread]] and [[Starter]] echo each other."


def test_the_kinds_are_tried_in_rank_order_and_an_unknown_kind_is_an_error():
    assert list(KINDS) == ["answer", "duplicate", "tension", "analogy", "missing-link"]
    assert KINDS["missing-link"].fits(Pair("a", "b", "x", "y", (), False, False))  # what every other kind is not
    with pytest.raises(UnknownKind):
        named("riddle")
    with pytest.raises(UnknownKind):
        disconfirmed("riddle", Pair("a", "b", "x", "y", (), False, False))
