"""The critic gate (§11.5): every rule fires on a bad candidate and stays quiet on a good one."""

import dataclasses
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from walker.cli import main
from walker.walk import critic
from walker.walk.candidate import Candidate, End
from walker.walk.critic import CriticContext, PoolClaim, gate, judge
from walker.workspace import Workspace

STARTER = "Kitchen/Sourdough Starter.md"
BACKPRESSURE = "Systems/Backpressure.md"
STARTER_SAYS = "A starter fed faster than it can ferment never peaks and turns weak and soupy."


def ends(refs, passages=None):
    """A bridge's ends: each ref with the passage the candidate quotes from it (none when not given)."""
    return tuple(End(ref.partition("#")[0], ref=ref, passage=passage)
                 for ref, passage in zip(refs, passages or [""] * len(refs)))


GOOD = Candidate(
    title="Sourdough Starter ↔ Backpressure",
    claim=("Sourdough Starter and Backpressure may be two views of one pattern around “faster”. "
           "Sourdough Starter: “A starter fed faster than it can ferment never peaks and turns weak and soupy.” "
           "Backpressure: “Never accept work faster than you can finish it.”"),
    supporting_refs=(f"{STARTER}#^feeding-schedule", f"{BACKPRESSURE}#^never-faster"),
    confidence="low",
    impact="add",
    impact_reason="Sourdough Starter and Backpressure are not linked; a link would put the feeding rule beside the rule for bounded queues",
    applies_when=("A conversation about feeding a sourdough starter turns to how fast to feed it.",),
    never_applies_when=("Debugging a production queue during an outage.",),
    disconfirm_if=("Read side by side, “faster” means something different in Sourdough Starter than in Backpressure.",),
    why_it_matters="What the vault knows about bounded queues may say when to feed.",
    bridge=(End(STARTER, ref=f"{STARTER}#^feeding-schedule", group="seed", passage=STARTER_SAYS),
            End(BACKPRESSURE, ref=f"{BACKPRESSURE}#^never-faster", group="far",
                passage="Never accept work faster than you can finish it.")),
    grounding={"rare_terms": ["faster"], "via": None},
)


@pytest.fixture(scope="module")
def ctx(sample_vault):
    ws = Workspace.open(sample_vault)
    return CriticContext(ws.corpus, ws.index, {STARTER, BACKPRESSURE, "Garden/Compost.md"}, [])


def fired(candidate, ctx):
    return judge(candidate, ctx).rules


def test_a_good_grounded_candidate_passes(ctx):
    verdict = judge(GOOD, ctx)
    assert verdict.accepted, verdict.reasons


def change(**fields):
    return dataclasses.replace(GOOD, **fields)


@pytest.mark.parametrize(
    "rule, bad",
    [
        ("no-refs", change(supporting_refs=())),
        ("refs-not-retrieved", change(supporting_refs=(f"{STARTER}#^feeding-schedule", "Music/Cadences.md#^perfect"))),
        ("refs-unresolved", change(supporting_refs=(f"{STARTER}#^feeding-schedule", f"{BACKPRESSURE}#^no-such-block"))),
        ("refs-unresolved", change(supporting_refs=(f"{STARTER}#L1-L999", f"{BACKPRESSURE}#^never-faster"))),
        ("refs-unresolved", change(supporting_refs=(f"{STARTER}#Nope", "Systems/Gone.md#^never-faster"))),
        ("no-falsifiable-disconfirm", change(disconfirm_if=())),
        ("no-falsifiable-disconfirm", change(disconfirm_if=("If it turns out to be wrong.", "Evidence against it appears somewhere."))),
        ("applies-when-vague", change(applies_when=())),
        ("applies-when-vague", change(applies_when=("Any conversation about anything at all.", "Always."))),
        ("sensitive-attribute", change(claim=GOOD.claim + " The author is probably anxious about deadlines.")),
        ("sensitive-attribute", change(claim=GOOD.claim + " He may be depressed.")),
        ("sensitive-attribute", change(claim=GOOD.claim + " Their family probably comes from an immigrant heritage.")),
        ("single-source", change(supporting_refs=(f"{STARTER}#^feeding-schedule", f"{STARTER}#Storage"))),
        ("restates-existing", change(claim="Never accept work faster than you can finish it. An unbounded queue "
                                           "hides overload until it turns into an outage.")),
        ("facts-absent-from-refs", change(claim=GOOD.claim + " Kubernetes solved this in 2014.")),
        ("facts-absent-from-refs", change(claim=GOOD.claim.replace("Never accept", "Always accept"))),
        ("facts-absent-from-refs", change(claim=GOOD.claim + " See [[Raft]].")),
        ("facts-absent-from-refs", change(claim=GOOD.claim + " the auto-walk protocol predicts this.")),
        ("impact-unjustified", change(impact="maybe")),
        ("impact-unjustified", change(impact_reason="")),
        ("unfalsifiable-claim", change(claim=GOOD.claim + " In some sense everything is connected.")),
        ("unfalsifiable-claim", change(claim="They relate.")),
        ("ungrounded", change(  # the claimed thread word is in neither passage, and they share nothing else
            grounding={"rare_terms": ["mycelium"], "via": None},
            claim=("Sourdough Starter and Rhythm and Meter may be two views of one pattern around “mycelium”. "
                   "Sourdough Starter: “A starter fed faster than it can ferment never peaks and turns weak and "
                   "soupy.” Rhythm and Meter: “It works only because the listener feels the grid.”"),
            supporting_refs=(f"{STARTER}#^feeding-schedule", "Music/Rhythm and Meter.md#^syncopation"),
            bridge=ends((f"{STARTER}#^feeding-schedule", "Music/Rhythm and Meter.md#^syncopation"),
                        (STARTER_SAYS, "It works only because the listener feels the grid.")))),
        ("homonym", change(  # "rests" in music and "everything rests on quorum": one word, two senses
            claim=("Rhythm and Meter and Consensus may be two views of one pattern around “rests”. Rhythm and Meter: "
                   "“Beginners rush through rests; good players wait them out fully.” Consensus: “Everything rests on "
                   "Quorum intersection.”"),
            supporting_refs=("Music/Rhythm and Meter.md#^rests", "Systems/Consensus.md#Families"),
            bridge=ends(("Music/Rhythm and Meter.md#^rests", "Systems/Consensus.md#Families"),
                        ("Beginners rush through rests; good players wait them out fully.",
                         "Everything rests on Quorum intersection.")),
            grounding={"rare_terms": ["rests"], "via": "Questions.md"})),
        ("repeated-text", change(claim=(  # one stock sentence pasted into two notes
            "Sourdough Starter and Backpressure may be two views of one pattern around “faster”. Sourdough Starter: "
            "“A starter fed faster than it can ferment never peaks and turns weak and soupy.” Backpressure: "
            "“A starter fed faster than it can ferment never peaks and turns soupy.”"),
            bridge=ends(GOOD.supporting_refs, (STARTER_SAYS, "A starter fed faster than it can ferment never peaks and "
                                                             "turns soupy.")))),
        ("homonym", change(grounding={"rare_terms": ["starter"], "via": None},  # the thread word is in a title only
                           claim=GOOD.claim.replace("never peaks", "never rises").replace("faster", "quicker", 1)
                           .replace("fed faster", "fed more"),
                           bridge=ends(GOOD.supporting_refs, (
                               STARTER_SAYS.replace("never peaks", "never rises").replace("fed faster", "fed more"),
                               GOOD.bridge[1].passage)))),
    ],
)
def test_each_rule_rejects_what_it_names(ctx, rule, bad):
    assert rule in fired(bad, ctx)


def test_shared_note_grounds_a_bridge(ctx):
    assert "ungrounded" not in fired(change(grounding={"rare_terms": [], "via": "Garden/Compost.md"}), ctx)


def test_duplicates_of_active_and_rejected_records(ctx):
    for status in ("active", "rejected"):
        pooled = CriticContext(ctx.corpus, ctx.index, ctx.retrieved,
                               [PoolClaim("hyp-2026-01-01-001", status, GOOD.claim, GOOD.supporting_refs)])
        assert "duplicate-of-pool" in fired(GOOD, pooled)
    archived = CriticContext(ctx.corpus, ctx.index, ctx.retrieved,
                             [PoolClaim("hyp-2026-01-01-001", "archived", GOOD.claim, GOOD.supporting_refs)])
    assert "duplicate-of-pool" not in fired(GOOD, archived)


def test_the_same_two_notes_through_other_passages_are_a_duplicate(ctx):
    """Three walks had kept Cache Warming and Levain Build three times, each through other sentences: a reviewer
    reads one connection between two notes once. A third note joined makes a wider bridge, not a repeat."""
    other = tuple(ref.split("#")[0] + "#Another section" for ref in GOOD.supporting_refs)
    pooled = CriticContext(ctx.corpus, ctx.index, ctx.retrieved,
                           [PoolClaim("hyp-2026-01-01-001", "active", "Another claim entirely.", other)])
    assert "duplicate-of-pool" in fired(GOOD, pooled)
    elsewhere = CriticContext(ctx.corpus, ctx.index, ctx.retrieved,
                              [PoolClaim("hyp-2026-01-01-001", "active", "Another claim entirely.",
                                         (other[0], "Garden/Compost.md#Compost"))])
    assert "duplicate-of-pool" not in fired(GOOD, elsewhere)


def test_plain_mentions_of_people_are_not_inferences(ctx):
    ok = change(claim=GOOD.claim + " I feed it when it has peaked.")
    assert "sensitive-attribute" not in fired(ok, ctx)


def test_gate_only_rejects_more(ctx):
    engine_said_no = critic.Verdict(False, ("engine-doubt",), ("the engine's own critic said no",))
    (verdict,) = gate([GOOD], ctx, [engine_said_no])
    assert not verdict.accepted and verdict.rules == ("engine-doubt",)


def test_noteworthy_only_for_soft_failures_across_folders(ctx):
    soft = change(claim="Backpressure may state a rule that holds well beyond its own domain: “Never accept work "
                        "faster than you can finish it.”",
                  supporting_refs=(f"{BACKPRESSURE}#^never-faster",),
                  grounding={"rare_terms": ["faster", "queue"], "via": None})
    hard = change(claim=GOOD.claim + " He may be depressed.", grounding={"rare_terms": ["faster", "queue"], "via": None})
    verdicts = gate([soft, hard], ctx)
    assert verdicts[0].noteworthy and verdicts[0].flagged_value_reason
    assert not verdicts[1].noteworthy
    assert not any(v.noteworthy for v in gate([soft, soft], ctx, noteworthy_limit=0))
    assert sum(v.noteworthy for v in gate([soft, soft], ctx)) == 1


def test_every_rule_has_a_test():
    import inspect
    source = inspect.getsource(inspect.getmodule(test_each_rule_rejects_what_it_names))
    for name, _ in critic.RULES:
        assert f'"{name}"' in source, name


def test_one_shared_word_within_one_subject_is_not_a_homonym(ctx):
    """The other direction of `homonym`: one word both kitchen notes use about fermenting keeps its sense."""
    fermentation = "Kitchen/Fermentation.md#^acid-guard"
    same_subject = change(
        claim=("Sourdough Starter and Fermentation may be two views of one pattern around “ferment”. Sourdough Starter: "
               "“A starter fed faster than it can ferment never peaks and turns weak and soupy.” Fermentation: "
               "“The ferment protects itself once it gets going; the first few days are the vulnerable part.”"),
        supporting_refs=(f"{STARTER}#^feeding-schedule", fermentation),
        bridge=ends((f"{STARTER}#^feeding-schedule", fermentation), (
            STARTER_SAYS, "The ferment protects itself once it gets going; the first few days are the vulnerable part.")))
    assert "homonym" not in fired(same_subject, ctx)
    assert "homonym" not in fired(GOOD, ctx)  # "fed faster than it can" / "work faster than you can": one sense
    assert "repeated-text" not in fired(GOOD, ctx) and "repeated-text" not in fired(same_subject, ctx)


CASES = yaml.safe_load((Path(__file__).parent / "data" / "critic_cases.yaml").read_text(encoding="utf-8"))
# The rules the protocol names: each must reject on its own, never only because `ungrounded` fired.
PROTOCOL_RULES = {"no-refs", "no-falsifiable-disconfirm", "applies-when-vague", "sensitive-attribute", "single-source",
                  "restates-existing", "facts-absent-from-refs", "impact-unjustified", "unfalsifiable-claim"}
OUTSIDE_THE_WALK = {"Music/Counterpoint.md", "Systems/Gossip Protocols.md", "Garden/Aphids.md", "Kitchen/Kimchi.md",
                    "Music/Ear Training.md"}


@pytest.fixture(scope="module")
def wide_ctx(ctx):
    """Most of the sample vault was retrieved; five notes were not."""
    return CriticContext(ctx.corpus, ctx.index, set(ctx.corpus.notes) - OUTSIDE_THE_WALK, [])


def from_case(case):
    """The good candidate with one case's changes, and the pool it is judged against."""
    case = dict(case)
    pool = [PoolClaim(f"hyp-2026-01-01-{n:03d}", status, GOOD.claim if claim == "same" else claim,
                      GOOD.supporting_refs if refs == "same" else tuple(refs))
            for n, (status, claim, refs) in enumerate(case.pop("pool", []), 1)]
    if "add" in case:
        case["claim"] = f"{GOOD.claim} {case.pop('add')}"
    passages = case.pop("passages", None)
    if "supporting_refs" in case or passages:
        case["bridge"] = ends(case.get("supporting_refs", GOOD.supporting_refs), passages)
    if "supporting_refs" in case:
        case.setdefault("grounding", {"rare_terms": [], "via": None})
    for name in ("supporting_refs", "applies_when", "never_applies_when", "disconfirm_if"):
        if name in case:
            case[name] = tuple(case[name])
    return dataclasses.replace(GOOD, **case), pool


def judged(case, wide_ctx):
    candidate, pool = from_case(case)
    return judge(candidate, CriticContext(wide_ctx.corpus, wide_ctx.index, wide_ctx.retrieved, pool))


# Good counterparts the fitted readers refuse: their measured errors (bench/README.md, "Judgement from data"), kept
# in view rather than dropped. Each passes again when a better reader does: the marks are strict.
REFUSED_WRONGLY = {
    "no-falsifiable-disconfirm-1": "an observation in everyday words reads as vague to the falsifier model",
    "no-falsifiable-disconfirm-4": "a rereading test reads as vague to the falsifier model",
    "impact-unjustified-3": "“neither note links to the other, so the bridge adds a connection” reads as no reason",
}


def cases(verdict):
    return [pytest.param(rule, case, id=f"{rule}-{n}", marks=[pytest.mark.xfail(reason=REFUSED_WRONGLY[f"{rule}-{n}"],
                                                                                  strict=True)]
                         if verdict == "good" and f"{rule}-{n}" in REFUSED_WRONGLY else [])
            for rule, both in CASES.items() for n, case in enumerate(both[verdict])]


@pytest.mark.parametrize("rule, case", cases("bad"))
def test_each_rule_rejects_paraphrases_for_its_own_reason(wide_ctx, rule, case):
    verdict = judged(case, wide_ctx)
    assert rule in verdict.rules, verdict.reasons
    if rule in PROTOCOL_RULES:
        assert "ungrounded" not in verdict.rules, verdict.reasons


@pytest.mark.parametrize("rule, case", cases("good"))
def test_each_rule_passes_good_counterparts(wide_ctx, rule, case):
    verdict = judged(case, wide_ctx)
    assert verdict.accepted, verdict.reasons


def test_every_rule_has_five_bad_and_five_good_cases():
    for name, _ in critic.RULES:
        assert len(CASES[name]["bad"]) >= 5 and len(CASES[name]["good"]) >= 5, name


def test_walker_critique_names_each_rule_on_a_file_of_paraphrases(tmp_path, sample_vault):
    """What a reviewer runs: every bad case rejected for its own rule, every good counterpart kept."""
    cases = [(rule, verdict, case) for rule, both in CASES.items() if rule not in ("refs-not-retrieved", "duplicate-of-pool")
             for verdict in ("bad", "good") for n, case in enumerate(both[verdict])
             if verdict == "bad" or f"{rule}-{n}" not in REFUSED_WRONGLY]
    records = [{"id": f"{rule}/{verdict}/{n}", **from_case(case)[0].as_dict()} for n, (rule, verdict, case) in enumerate(cases)]
    (tmp_path / "candidates.yaml").write_text(yaml.safe_dump(json.loads(json.dumps(records)), allow_unicode=True), encoding="utf-8")
    result = CliRunner().invoke(main, ["critique", str(tmp_path / "candidates.yaml"), str(sample_vault), "--json"])
    assert result.exit_code == 0, result.output
    for verdict in json.loads(result.output)["verdicts"]:
        rule, expected, _ = verdict["id"].split("/")
        if expected == "bad":
            assert rule in verdict["rules"], verdict
        else:
            assert verdict["accepted"], verdict


# Candidates written blind (bench/judgement/critique-cases*.yaml): good ones passed and bad ones that fall to their own
# rule, as measured (bench/README.md) with the readers this test runs; fewer is a regression.
MEASURED = {"critique-cases.yaml": (11, 28), "critique-cases-2.yaml": (7, 23), "critique-cases-3.yaml": (12, 22),
            "critique-cases-4.yaml": (8, 26), "critique-cases-5.yaml": (11, 25), "critique-cases-6.yaml": (10, 27),
            "critique-cases-7.yaml": (12, 24), "critique-cases-8.yaml": (10, 26), "critique-cases-9.yaml": (8, 25),
            "critique-cases-10.yaml": (8, 24), "critique-cases-11.yaml": (7, 28), "critique-cases-12.yaml": (8, 25),
            "critique-cases-13.yaml": (9, 25), "critique-cases-14.yaml": (9, 26), "critique-cases-15.yaml": (7, 25),
            "critique-cases-16.yaml": (8, 23), "critique-cases-17.yaml": (5, 24), "critique-cases-18.yaml": (5, 26),
            "critique-cases-19.yaml": (6, 27), "critique-cases-20.yaml": (5, 27)}


@pytest.mark.parametrize("name", MEASURED)
def test_the_gate_on_candidates_written_blind_keeps_its_measured_figures(sample_vault, model_on, name):
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "bench" / "judgement" / "critique.py"
    spec = importlib.util.spec_from_file_location("critique_bench", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    found = bench.score(yaml.safe_load((path.parent / name).read_text("utf-8")), sample_vault)
    good = found[("good", True)]
    bad = sum(n for (defect, right), n in found.items() if defect != "good" and right)
    assert good >= MEASURED[name][0] and bad >= MEASURED[name][1], found


def test_an_analogy_whose_passages_share_no_word_is_grounded_when_each_half_is_said_in_its_own_passages_words(ctx):
    """Watering's finger test and Bread Hydration's dough reading share no word; a claim that says what each
    passage holds is grounded, a claim that says it of neither is not."""
    refs = ("Garden/Watering.md#^finger-test", "Kitchen/Bread Hydration.md#^bulk-by-feel")
    both = CriticContext(ctx.corpus, ctx.index, {"Garden/Watering.md", "Kitchen/Bread Hydration.md"}, [])
    grounded = dataclasses.replace(
        GOOD, title="Watering ↔ Bread Hydration", supporting_refs=refs, bridge=(), grounding={"rare_terms": [], "via": None},
        claim=("Both passages act on the state of the material rather than on a schedule: a finger pushed into the "
               "soil to the second knuckle decides when to water, and a dough that has risen and shows bubbles on "
               "the sides of the container decides when fermenting is done, whatever the recipe says."))
    assert "ungrounded" not in judge(grounded, both).rules
    vague = dataclasses.replace(grounded, claim=("Both passages describe one habit of mind that carries from one "
                                                 "craft to another and shapes how either is practised."))
    assert "ungrounded" in judge(vague, both).rules


def test_a_candidate_that_quotes_what_a_note_says_of_someones_health_is_rejected_for_it(ctx):
    said = "The new pills leave me foggy all afternoon, so I water the beds before lunch."
    quoting = dataclasses.replace(GOOD, bridge=(dataclasses.replace(GOOD.bridge[0], passage=said), GOOD.bridge[1]))
    verdict = judge(quoting, ctx)
    assert "sensitive-attribute" in verdict.rules
    assert any("quotes" in reason and "pills" in reason for reason in verdict.reasons)


def test_a_chinese_claim_about_english_notes_is_grounded_through_the_glosses_of_its_words(ctx):
    """The same two English passages, a claim in Chinese: each half is read in the passages' words through
    CC-CEDICT (walker.glosses), so a Chinese reader's analogy is not refused for being written in Chinese."""
    refs = ("Garden/Watering.md#^finger-test", "Kitchen/Bread Hydration.md#^bulk-by-feel")
    both = CriticContext(ctx.corpus, ctx.index, {"Garden/Watering.md", "Kitchen/Bread Hydration.md"}, [])
    grounded = dataclasses.replace(
        GOOD, title="Watering ↔ Bread Hydration", supporting_refs=refs, bridge=(), grounding={"rare_terms": [], "via": None},
        claim=("两段都按材料此刻的状态行事，而不是按日程：把手指插进土里到第二个指节，决定什么时候浇水；"
               "面团涨起来、容器壁上出现气泡，才算发酵完成，不管配方写了多久。"))
    assert "ungrounded" not in judge(grounded, both).rules
    vague = dataclasses.replace(grounded, claim="两段描述的是同一种思维习惯，它从一门手艺延续到另一门手艺。")
    assert "ungrounded" in judge(vague, both).rules


def test_one_shared_word_is_a_homonym_only_when_the_claim_joins_the_passages_through_it(ctx):
    """Soil Biology's mycelium and Gossip Protocols share one word, "neighbour", in one sense. A claim that joins them
    by what each passage says is no pun; a claim that joins them through the word itself is."""
    refs = ("Garden/Soil Biology.md#^mycelium", "Systems/Gossip Protocols.md#^local-exchange")
    both = CriticContext(ctx.corpus, ctx.index, {"Garden/Soil Biology.md", "Systems/Gossip Protocols.md"}, [])
    by_halves = dataclasses.replace(
        GOOD, title="Soil Biology ↔ Gossip Protocols", supporting_refs=refs, bridge=(), grounding={},
        claim=("In the soil each fungal junction swaps sugar for phosphorus on its own and the whole network still "
               "balances supply and demand; in a gossip cluster no node sees the whole and the cluster still "
               "converges from local exchanges. Both reach a global balance with nobody coordinating."))
    through_the_word = dataclasses.replace(
        by_halves, claim=("Both notes are about neighbours: plants are neighbours joined by one mycelium, and nodes "
                          "gossip with their neighbours."))
    assert "homonym" not in fired(by_halves, both)
    assert "homonym" in fired(through_the_word, both)


def test_a_chinese_claim_is_read_against_english_passages_in_every_sense_of_its_words(ctx):
    """集群 is "clan" by its first sense and "cluster" by another; 收敛 is "dwindle" first and "converge" later. A Chinese
    claim that says each passage's half in its own terms is grounded in the sense the passage uses."""
    refs = ("Garden/Soil Biology.md#^mycelium", "Systems/Gossip Protocols.md#^local-exchange")
    both = CriticContext(ctx.corpus, ctx.index, {"Garden/Soil Biology.md", "Systems/Gossip Protocols.md"}, [])
    claim = dataclasses.replace(
        GOOD, title="Soil Biology ↔ Gossip Protocols", supporting_refs=refs, bridge=(), grounding={},
        claim=("菌根网络里每个连接点各自拿糖换磷和水，整个网络照样平衡供需；集群里没有节点看得到全貌，"
               "节点之间只做局部交换，整个集群照样收敛。"))
    assert "ungrounded" not in fired(claim, both)


def test_a_candidate_no_record_could_hold_is_refused_before_it_is_read(tmp_path, sample_vault):
    """A hand-written or model-written candidate may carry a claim of a megabyte: each rule reads it in time in
    proportion (4 s for 900 KB), and no record could hold it (a property holds 20,000 characters)."""
    import time

    claim = "Compost says the heap goes sour without air, and Sourdough Starter adds that a starter goes sour too. " * 9000
    path = tmp_path / "candidates.yaml"
    path.write_text(yaml.safe_dump([{
        "id": "huge", "claim": claim, "supporting_refs": ["Garden/Compost.md", "Kitchen/Sourdough Starter.md"],
        "confidence": "low", "impact": "add", "impact_reason": "a link would put the two sour things side by side",
        "applies_when": ["when a heap smells sour in spring"], "never_applies_when": ["when baking bread"],
        "disconfirm_if": ["the heap is not sour"], "why_it_matters": "Two kinds of sourness share a cause."}]))
    started = time.perf_counter()
    result = CliRunner().invoke(main, ["critique", str(path), str(sample_vault), "--json"])
    assert time.perf_counter() - started < 2.0
    verdict = json.loads(result.output)["verdicts"][0]
    assert not verdict["accepted"] and verdict["rules"] == ["unrecordable"]
    assert "20000 characters" in verdict["reasons"][0]
