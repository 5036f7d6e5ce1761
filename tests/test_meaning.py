"""The sentence-embedding model (walker[meaning]): what it measures, that a walk scores with it, that it stays light."""

import json
import os
import subprocess
import sys

import pytest
from conftest import SAMPLE_VAULT, copy_vault_files

from walker import meaning
from walker.walk.evidence import Evidence
from walker.walk.scorer import MODEL_SIGNALS, model_name, score

COMPOST = "Without air the compost pile fermented and smelled of rotten eggs."
ANAEROBIC = "A heap that goes anaerobic ferments instead of rotting: sour, wet, sulphurous."
HEAP_SORT = "Heap sort builds a binary heap from the array and pops the largest element each time."
EVIDENCE = dict(specific=1.0, salience=0.8, context=0.4, topic=0.5, phrase=0.0, joined=0.0, apart=0.3, question=0.0,
                coherence=0.6)


def test_switched_off_it_measures_nothing_and_the_score_uses_the_plain_model(monkeypatch):
    monkeypatch.setenv("WALKER_MEANING", "0")
    assert meaning.Meaning().closeness(COMPOST, ANAEROBIC) is None
    plain = Evidence(**EVIDENCE)
    assert model_name(plain) == "plain" and "meaning" not in plain.as_dict()
    assert 0.0 < score(plain) < 1.0


def test_it_reads_meaning_not_shared_words(model_on):
    passages = meaning.Meaning()
    same_thing = passages.closeness(COMPOST, ANAEROBIC)  # no content word in common
    one_word = passages.closeness(ANAEROBIC, HEAP_SORT)  # "heap", in another sense
    assert same_thing is not None and one_word is not None
    assert same_thing > 0.45 > 0.35 > one_word


def test_the_encoder_gives_the_models_own_embeddings(model_on):
    """Values the model gives through sentence-transformers, the library it was trained with (bench/meaning.py)."""
    vectors = meaning.encoder()([COMPOST, ANAEROBIC, HEAP_SORT])
    assert vectors[0][:4] == pytest.approx([0.05696, 0.05942, 0.02392, 0.04775], abs=1e-4)
    assert (vectors @ vectors.T)[0] == pytest.approx([1.0, 0.525, 0.1478], abs=1e-3)


def test_the_score_of_a_measured_pair_uses_the_meaning_model_and_rises_with_meaning():
    close, far = Evidence(**EVIDENCE, meaning=0.7), Evidence(**EVIDENCE, meaning=0.1)
    assert model_name(close) == "meaning" and set(MODEL_SIGNALS["meaning"]) <= set(close.as_dict())
    assert score(close) > score(far)
    assert Evidence.of(close.as_dict()) == Evidence(**{k: round(v, 4) for k, v in EVIDENCE.items()}, meaning=0.7)


def test_a_walk_scores_with_the_model_and_never_loads_a_deep_learning_library(model_on, tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    program = (
        "import json, sys\n"
        "from click.testing import CliRunner\n"
        "from walker.cli import main\n"
        f"result = CliRunner().invoke(main, ['walk', {str(vault)!r}, '--random-seed', '2', '--json'])\n"
        "heavy = sorted(m for m in ('torch', 'transformers', 'sentence_transformers', 'huggingface_hub') if m in sys.modules)\n"
        "print(json.dumps({'code': result.exit_code, 'heavy': heavy, 'output': result.output}))\n"
    )
    env = {**os.environ, "WALKER_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("WALKER_MEANING", None)
    ran = json.loads(subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env,
                                    check=True, timeout=300).stdout.splitlines()[-1])
    assert ran["code"] == 0 and ran["heavy"] == []
    traces = list((vault / "walks" / "runs").glob("*.yaml"))
    assert traces and "meaning:" in traces[0].read_text(encoding="utf-8")


def test_a_pair_in_a_script_the_model_never_learned_is_left_to_the_plain_model(model_on):
    passages = meaning.Meaning()
    assert passages.closeness("免揉面包靠时间让面筋自己形成。", "手擀面醒面是为了让面筋松弛。") is None
    assert passages.closeness(COMPOST, "堆肥桶缺氧时会发酵变酸。") is None
    assert passages.closeness(COMPOST, ANAEROBIC) is not None


def test_texts_embedded_once_are_all_given_back_when_the_store_of_them_overflows(model_on, monkeypatch):
    monkeypatch.setattr(meaning, "MAX_REMEMBERED", 3)
    texts = [f"The {n} bed was mulched in spring." for n in ("first", "second", "third", "fourth", "fifth")]
    found = meaning.vectors(texts)
    assert found is not None and len(found) == 5
    assert len(meaning._remembered) <= 5 and all(abs(float(v @ v) - 1) < 1e-4 for v in found)
    again = meaning.vectors(texts[:2])
    assert again is not None and float(again[0] @ found[0]) == pytest.approx(1.0, abs=1e-5)
