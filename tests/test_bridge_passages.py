"""Issue 29: a bridge carries its passages as data, from the roam to the record, and nothing reads a quote back
out of a claim's wording. The duplicate-drop bug it fixes: a ref was paired with a quoted thread word (“sour”)
instead of its passage, so two unrelated bridges that share one end looked like one, and one was dropped."""

import json

import pytest
from conftest import SAMPLE_VAULT, cli, copy_vault_files, edit_record, pair_candidate, pool_records, write_vault

from walker.passages import ref_text
from walker.walk.candidate import Candidate, End
from walker.walk.critic import CriticContext
from walker.walk.engines.base import WalkContext
from walker.walk.engines.extractive import ExtractiveEngine, _prefer_append_only
from walker.wander import Item, Neighbourhood, Seed, propose
from walker.workspace import Workspace

STARTER = "Kitchen/Sourdough Starter.md"
STARTER_REF = f"{STARTER}#^feeding-schedule"
STARTER_SAYS = ("A starter fed faster than it can ferment never peaks and turns weak and soupy; one fed too rarely "
                "gets hungry and sour.")
COMPOST_SAYS = "A heap that goes anaerobic ferments instead of rotting: sour, wet, sulphurous."
WORMS_SAYS = "Food piles up faster than the worms can process it, the bin heats and sours, and the worms try to leave."


@pytest.fixture(scope="module")
def ws(sample_vault):
    return Workspace.open(sample_vault)


def context_for(ws, seed, *far):
    proposition, ref = propose(ws.index, ws.corpus.notes[seed])
    items = tuple(Item(p, p, "far", None, 0.1, (), "test") for p in far)
    hood = Neighbourhood(Seed(seed, proposition, ref, "given", ""), (), (), items, (), ())
    return WalkContext(ws.corpus, ws.index, ws.links, hood, CriticContext(ws.corpus, ws.index, {seed, *far}, []), {})


def analogy(other: str, passage: str, thread: str, ref: str | None = None) -> Candidate:
    """A bridge from the starter's feeding schedule, with the claim a walk words for it."""
    ref = ref or f"{other}#^x"
    name = other.rsplit("/", 1)[-1].removesuffix(".md")
    return Candidate(
        claim=f"Sourdough Starter and {name} may describe one mechanism in two domains, through {thread}. "
              f"Sourdough Starter: “{STARTER_SAYS}” {name}: “{passage}”",
        supporting_refs=(STARTER_REF, ref), confidence="low", impact="add", impact_reason="r", applies_when=(),
        never_applies_when=(), disconfirm_if=(), kind="analogy", title=f"Sourdough Starter ↔ {name}",
        bridge=(End(STARTER, "Sourdough Starter", "seed", STARTER_REF, STARTER_SAYS),
                End(other, name, "far", ref, passage)))


def test_two_unrelated_bridges_sharing_one_end_are_both_kept(ws):
    """Sourdough Starter ↔ Compost and Sourdough Starter ↔ Worm Bin share the starter's passage; their other ends
    (a heap gone anaerobic, a bin overfed) say different things. Both claims quote “sour” as their second thread
    word, which the old pairing of refs with quotes took for the other end's passage."""
    context = context_for(ws, STARTER)
    compost = analogy("Garden/Compost.md", COMPOST_SAYS, "“ferment” and “sour”", "Garden/Compost.md#^aerobic")
    worms = analogy("Garden/Worm Bin.md", WORMS_SAYS, "“faster” and “sour”", "Garden/Worm Bin.md#^feeding-rhythm")
    assert _prefer_append_only(context, [compost, worms]) == [compost, worms]


def test_every_end_of_a_roamed_bridge_carries_the_passage_its_ref_opens(ws):
    context = context_for(ws, "Systems/Cache Warming.md", "Kitchen/Levain Build.md", "Garden/Compost.md",
                          "Kitchen/Proofing Box Thermostat.md", "Systems/Autoscaler Oscillation.md")
    engine = ExtractiveEngine()
    roamed = engine.roam(context, engine.inventory(context))
    assert roamed
    for candidate in roamed:  # each end carries the passage its ref opens, and its thread words in it
        for end in candidate.bridge:
            assert end.passage and end.passage in " ".join(ref_text(ws.corpus, ws.index, end.ref).split())
            assert end.terms and all(term in end.passage.lower() for term in end.terms)


def test_only_bridges_whose_other_ends_say_the_same_are_one(ws):
    context = context_for(ws, STARTER)
    compost = analogy("Garden/Compost.md", COMPOST_SAYS, "“ferment” and “sour”", "Garden/Compost.md#^aerobic")
    # The day's entry says what Compost says: one hypothesis, kept where its ref stays good (the daily note).
    daily = analogy("Daily/2026-03-14.md", "The bottom half had gone anaerobic, sour and wet.", "“anaerobic” and “sour”",
                    "Daily/2026-03-14.md#L6")
    assert _prefer_append_only(context, [compost, daily]) == [daily]


def levain_and_cache(vault, monkeypatch):
    """The record a walk from Levain Build keeps of it and Cache Warming. What a walk keeps is the score's business
    (test_walk_quality.py); here every sound candidate is kept (and not only the best three)."""
    monkeypatch.setattr("walker.walk.engines.extractive.floor", lambda evidence: 0.0)
    (vault / "walker.toml").write_text("[walk]\nmax_hypotheses = 10\n", encoding="utf-8")
    first = json.loads(cli("walk", vault, "--now", "2026-12-04T07:50", "--seed-note", "Levain Build", "--json").output)
    active = pool_records(vault, "active")
    (found,) = [i for i in first["hypotheses"] if active[i].data["title"] == "Levain Build ↔ Cache Warming"]
    return found


def test_a_kept_record_keeps_its_passages_and_widening_reads_them(tmp_path, monkeypatch):
    """The record's passages are the text its refs open, one per ref; a later walk widens it from them, whatever a
    reviewer made of the claim's wording."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    pair_id = levain_and_cache(vault, monkeypatch)
    pair = pool_records(vault, "active")[pair_id]
    ws = Workspace.open(vault)
    refs, passages = pair.data["supporting_refs"], pair.data["passages"]
    assert len(passages) == len(refs) == 2 and pair.record.passages == tuple(passages)
    for ref, passage in zip(refs, passages):
        assert passage in pair.data["claim"]
        assert " ".join(passage.split()) in " ".join(ref_text(ws.corpus, ws.index, ref).split())

    edit_record(pair.path, claim="Cache Warming and Levain Build: both are warmed “too early, and that is the point”.")
    second = json.loads(cli("walk", vault, "--now", "2026-12-11T07:50", "--seed-note", "Seed Starting", "--json").output)
    active = pool_records(vault, "active")
    wide = next(active[i] for i in second["hypotheses"] if pair_id in active[i].data["impact_reason"])
    assert set(refs) < set(wide.data["supporting_refs"]) and pair_id in wide.data["impact_reason"]
    third = refs.index(wide.data["supporting_refs"][0])
    assert wide.data["passages"][0] == passages[third] and f"“{passages[third]}”" in wide.data["claim"]
    assert "that is the point" not in wide.data["claim"]
    assert len(wide.data["passages"]) == 3 and cli("check", vault).exit_code == 0


def test_a_hand_written_candidate_gives_its_passages_or_the_critic_reads_its_refs(ws):
    """`walker critique` YAML: passages on the bridge's ends, or one per ref as a record keeps them, or none."""
    from walker.walk.critic import repeated_text

    refs = [STARTER_REF, "Garden/Compost.md#^aerobic"]
    fields = {"claim": "c", "supporting_refs": refs}
    listed = Candidate.from_dict({**fields, "passages": [STARTER_SAYS, STARTER_SAYS]})
    assert listed.passages == (STARTER_SAYS, STARTER_SAYS) and [e.path for e in listed.bridge] == [STARTER, "Garden/Compost.md"]
    on_ends = Candidate.from_dict({**fields, "bridge": [{"ref": refs[0], "passage": STARTER_SAYS, "terms": "sour"},
                                                        {"ref": refs[1], "passage": COMPOST_SAYS}]})
    assert on_ends.passages == (STARTER_SAYS, COMPOST_SAYS) and on_ends.bridge[0].terms == ("sour",)
    bare = Candidate.from_dict({**fields, "bridge": [{"ref": refs[0]}, {"ref": refs[1], "terms": 3}]})
    assert bare.passages == () and bare.bridge[1].path == "Garden/Compost.md"
    critic = CriticContext(ws.corpus, ws.index, {STARTER, "Garden/Compost.md"}, [])
    assert repeated_text(listed, critic) and repeated_text(bare, critic) is None  # none quoted: nothing copied


def test_the_record_page_marks_the_passages_the_record_keeps(tmp_path, monkeypatch):
    """The review site marks the sentence the walk quoted from each ref, read from the record, never from the
    claim: a reworded claim marks the same sentences, and an older record without passages marks none."""
    import dataclasses

    from walker.corpus import load_corpus
    from walker.site.links import SiteLinks
    from walker.site.recordpage import record_page

    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    kept = levain_and_cache(vault, monkeypatch)
    record = pool_records(vault, "active")[kept]
    corpus = load_corpus(vault)
    links = SiteLinks(corpus, "vault", {p: f"notes/{p}" for p in corpus.notes}, {})

    def marked(stored):
        page = record_page(stored, f"walks/active/{kept}.md", f"hypotheses/{kept}.md", {}, corpus, links, None, {})
        return [part.replace("**", "") for part in page.split("==")[1::2]]  # the thread words are in bold

    passages = record.data["passages"]
    assert marked(record) == passages
    reworded = {**record.data, "claim": "Both are warmed “Replay yesterday's most frequent keys a few minutes before”."}
    assert marked(dataclasses.replace(record, data=reworded)) == passages
    older = {k: v for k, v in record.data.items() if k != "passages"}
    assert marked(dataclasses.replace(record, data=older)) == []


def test_the_thread_is_what_the_two_quotes_hold_not_what_their_paragraphs_do(tmp_path):
    """A paragraph that names three shared words too far apart for one quote (at most three sentences in a row)
    must not win over a sentence that holds two of them: its quote would hold one word, and a thread of one
    word is no thread."""
    spread = ("The heater kept running and the box would overshoot by evening. The dough sat waiting in the big "
              "glass bowl. The lid of the cooler stayed shut all day. The kitchen was cold because the window was "
              "open. Then came a slow oscillation that lasted through the night. The timer on the oven rang twice "
              "before dawn. The heat mat under the box was old and cheap. The lights in the hall were switched off "
              "early. A dead band of hysteresis in the thermostat fixed it.")
    files = {f"Filler/Note {n}.md": f"# Note {n}\n\nThe garden bed number {n} was weeded and watered on a quiet "
                                    f"morning in week {n}.\n" for n in range(30)}
    files["Kitchen/Proofing Box.md"] = (f"# Proofing Box\n\n{spread}\n\nEvery overshoot of the heat mat was followed "
                                        "by an oscillation that took hours to settle.\n")
    files["Systems/Autoscaler.md"] = ("# Autoscaler\n\nThe scaler added machines late, so capacity would overshoot, "
                                      "and the oscillation with its hysteresis went on all afternoon.\n")
    ws = Workspace.open(write_vault(tmp_path / "vault", files))
    candidate = pair_candidate(ws, "Kitchen/Proofing Box.md", "Systems/Autoscaler.md")
    assert candidate is not None
    quoted = candidate.bridge[0].passage
    assert quoted.startswith("Every overshoot"), quoted
    assert all(term in quoted.lower() for term in candidate.bridge[0].terms)
