"""Kinds of hypothesis: each is found where it should be, and each kind's disconfirm_if can be checked."""

import copy
import re

import pytest
import yaml
from click.testing import CliRunner
from conftest import (
    SAMPLE_VAULT,
    copy_vault_files,
    kept_candidate,
    pair_candidate,
    pair_context,
    real_vault,
    write_vault,
)

from walker.cli import main
from walker.kinds.base import APART, ONE_DOMAIN, ONE_FOLDER, Pair
from walker.walk.critic import CriticContext, gate
from walker.walk.engines.base import WalkContext
from walker.walk.engines.extractive import ExtractiveEngine, Propositions
from walker.walk.kinds import DOMAIN_APART, classify, disconfirmed
from walker.walk.sense import thread
from walker.wander import Neighbourhood, Seed
from walker.workspace import Workspace


@pytest.fixture(scope="module")
def ws(sample_vault):
    return Workspace.open(sample_vault)




@pytest.mark.parametrize("a, b, kind", [
    ("Kitchen/Levain Build.md", "Systems/Cache Warming.md", "analogy"),  # warm it just before the peak
    ("Questions.md", "Garden/Waiting on Predators.md", "answer"),  # when is waiting wise?
    ("Systems/Timeouts.md", "Systems/Retries and Backoff.md", "tension"),  # never retry / often worth retrying
    ("Kitchen/Brining.md", "Kitchen/Dry Brining Meat.md", "duplicate"),  # two notes on dry-brining meat
    ("Garden/Companion Planting.md", "Garden/Cover Crops.md", "missing-link"),
])
def test_each_kind_is_found_where_it_is(ws, a, b, kind):
    candidate = pair_candidate(ws, a, b)
    assert candidate is not None and candidate.kind == kind
    # Its claim quotes both passages and says when it applies in the passages' words, not by titles alone.
    assert len(re.findall(r"“[^”]{20,}”", candidate.claim)) == 2
    titles = {ws.corpus.notes[a].title, ws.corpus.notes[b].title}
    assert all(not any(t in situation for t in titles) for situation in candidate.applies_when[:1])


def test_a_passage_that_names_another_note_without_linking_it_is_an_unlinked_mention(ws):
    """The music note says "as in Acid" without a link: the claim says so, so the reviewer knows the link to add."""
    found = pair_candidate(ws, "Kitchen/Acid.md", "Music/Tension and Release.md")
    assert found is not None and found.claim.startswith("Tension and Release names Acid in “"), found
    assert "without a link to it, and Acid says “" in found.claim
    assert found.why_it_matters.startswith("A title typed without a link shows only in the unlinked mentions of Acid")
    (verdict,) = gate([found], pair_context(ws, "Kitchen/Acid.md", "Music/Tension and Release.md").critic)
    assert verdict.accepted, verdict
    neither = pair_candidate(ws, "Kitchen/Levain Build.md", "Systems/Cache Warming.md")
    assert neither is not None and " names " not in neither.claim


def test_a_chinese_unlinked_mention_is_worded_in_chinese(ws):
    from walker.walk.kinds import word

    a, b = "酸面团发酵太久会变酸，就像堆肥里说的那样，缺氧的时候乳酸菌占了上风。", "堆肥缺氧时乳酸菌和其他厌氧菌占上风，堆肥就会发酸发臭。"
    pair = Pair("酸面团", "堆肥", a, b, thread(a, b, ws.index, True), same_concept=False, linked=False,
                domains=ONE_FOLDER, mention="a")
    claim = word("missing-link", pair, ws.index).claim
    assert claim == f"酸面团在“{a}”里提到了堆肥，却没有链接到它，而堆肥写道“{b}”", claim


def test_half_sentences_are_not_quoted(ws, tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    write_vault(vault, {"Systems/Formats.md": "# Formats\n\nSo if the cache warming format is a peak window:\n\n"
                                              "- warmed too early and peaked before the traffic arrives\n"})
    other = Workspace.open(vault)
    critic = CriticContext(other.corpus, other.index, set(), [])
    hood = Neighbourhood(Seed("Systems/Formats.md", "", "Systems/Formats.md", "given", ""), (), (), (), (), ())
    quotable = Propositions(WalkContext(other.corpus, other.index, other.links, hood, critic, {}))
    assert quotable("Systems/Formats.md") == []  # a lead-in to a list and a list item without a full stop
    assert quotable("Systems/Cache Warming.md")  # whole sentences are


def test_one_word_in_two_senses_is_not_kept(ws):
    assert kept_candidate(ws, "Garden/Pruning.md", "Systems/Git Branches.md") is None  # branches
    assert kept_candidate(ws, "Music/Rhythm and Meter.md", "Systems/Consensus.md") is None  # rests


def pair(ws, a, b, *, same_concept=False, linked=False, domains=APART, duplicate=False):
    return Pair("A", "B", a, b, thread(a, b, ws.index, True), same_concept, linked, domains, duplicate)


QUESTION = "When is waiting wise and when is it just avoidance?"
REPLY = "Waiting is wise when something is working while you wait, and avoidance when nothing is."
NEVER = "Never retry a timed-out request that changes state unless it carries an idempotency key."
OFTEN = "A failed request is often worth retrying, but naive retries turn a small outage into a big one."
LEVAIN = "A levain warmed too early has peaked and fallen by the time the dough needs it."
CACHE = "Replay the most frequent keys before the traffic peak, so the cache is warm when the load arrives."
PEAK = "Use the levain at its peak: one that has peaked and fallen makes flat bread."
STARTER = "A starter fed faster than it can ferment never peaks and turns weak and soupy."


@pytest.mark.parametrize("kind, good, bad", [
    ("answer", dict(a=QUESTION, b=REPLY), dict(a=QUESTION, b=STARTER)),  # the reply must speak of the question
    ("tension", dict(a=NEVER, b=OFTEN, same_concept=True),
     dict(a=NEVER, b="Never retry a request without an idempotency key.", same_concept=True)),  # both deny
    ("tension", dict(a=NEVER, b=OFTEN, same_concept=True),  # "never peaks" is an outcome, not advice against
     dict(a=STARTER, b="A levain warmed too early has peaked and fallen by the time the dough needs it.",
          same_concept=True)),
    ("missing-link", dict(a=LEVAIN, b=PEAK, same_concept=True),
     dict(a=LEVAIN, b=PEAK, same_concept=True, linked=True)),  # a link already joins them
    ("analogy", dict(a=LEVAIN, b=CACHE), dict(a=LEVAIN, b=CACHE, domains=ONE_DOMAIN)),  # one domain: no analogy
    ("analogy", dict(a=LEVAIN, b=CACHE), dict(a=LEVAIN, b=CACHE, same_concept=True)),  # one subject: no analogy
    ("duplicate", dict(a=LEVAIN, b=PEAK, domains=ONE_FOLDER, duplicate=True), dict(a=LEVAIN, b=PEAK, domains=ONE_FOLDER)),
])
def test_disconfirm_if_is_false_for_a_good_example_and_true_for_a_bad_one(ws, kind, good, bad):
    found = pair(ws, good.pop("a"), good.pop("b"), **good)
    assert classify(found) == kind
    assert not disconfirmed(kind, found)
    assert disconfirmed(kind, pair(ws, bad.pop("a"), bad.pop("b"), **bad))


@pytest.mark.parametrize("vault, a, b", [
    # "confirming my understanding of the behaviour" / "to understand the behaviour"
    ("tasks-demo", "Functions/Custom Filters With Complex Caching.md",
     "Manual Testing/Scheduled Date Implied/Search for Scheduled Dates.md"),
    # "phrases that the Tasks plugin recognises" / "It recognises Tasks' emojis"
    ("obsidian-tasks-docs", "Editing/Auto-Suggest.md", "How To/Show tasks in a calendar.md"),
])
def test_words_about_knowing_are_no_thread(vault, a, b):
    """Two authors saying they understood or recognised something share words about knowing, not a subject."""
    assert kept_candidate(Workspace.open(real_vault(vault)), a, b) is None


def test_a_pair_whose_subject_has_a_note_of_its_own_is_no_discovery():
    """Both passages are about invalid dates, and the vault has a note of that name: it already gathers them."""
    demo = Workspace.open(real_vault("tasks-demo"))
    assert "Invalid Dates" in {note.title for note in demo.corpus.notes.values()}
    assert pair_candidate(demo, "Manual Testing/Invalid dates with Sorting and Grouping.md",
                      "Manual Testing/Recurrence handling invalid dates.md") is None


def test_one_passage_pasted_into_two_notes_is_no_discovery(ws):
    assert classify(pair(ws, LEVAIN, LEVAIN, domains=ONE_DOMAIN)) is None


@pytest.mark.parametrize("domains, kind", [(APART, "analogy"), (ONE_DOMAIN, "missing-link"), (ONE_FOLDER, "missing-link")])
def test_where_two_notes_sit_decides_the_shape_of_their_thread(ws, domains, kind):
    assert classify(pair(ws, LEVAIN, CACHE, domains=domains)) == kind


def test_folders_far_apart_in_meaning_are_two_domains(ws):
    index = ws.index
    assert index.domain_closeness("Kitchen/Levain Build.md", "Systems/Cache Warming.md") < DOMAIN_APART
    assert index.domain_closeness("Music/Cadences.md", "Systems/Raft.md") < DOMAIN_APART
    assert index.domain_closeness("Daily/2026-10-31.md", "Garden/Compost.md") >= DOMAIN_APART  # a garden diary
    assert index.domain_closeness("Garden/Compost.md", "Garden/Mulch.md") == pytest.approx(1.0)


def test_an_analogy_in_different_words_passes_critique_and_a_homonym_does_not(tmp_path):
    """Two passages with no word in the same form ("warmed"/"warm", "peaked"/"peak") are one mechanism."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    levain = ("A levain warmed too early has peaked and fallen by the time the dough needs it, and the bread comes "
              "out sour and flat.")
    cache = ("Replay yesterday's most frequent keys a few minutes before the traffic peak, so the cache is warm when "
             "the load arrives.")
    words = [set(re.findall(r"[a-z]{4,}", text.lower())) for text in (levain, cache)]
    assert not words[0] & words[1]
    analogy = {
        "id": "analogy",
        "claim": f"Levain Build and Cache Warming describe one mechanism: ready just before the peak, not long "
                 f"before. Levain Build: “{levain}” Cache Warming: “{cache}”",
        "supporting_refs": ["Kitchen/Levain Build.md#^levain-timing", "Systems/Cache Warming.md#^warm-before-peak"],
        "confidence": "low", "impact": "add",
        "impact_reason": "the two notes are not linked; a link would put each mechanism beside the other, where its own note can use it",
        "applies_when": ["Deciding how long before a rush to prepare something that fades once ready."],
        "never_applies_when": ["Baking to a recipe that already gives the times."],
        "disconfirm_if": ["The levain's timing depends on temperature in a way the cache's warm-up has no counterpart for."],
    }
    homonym = dict(copy.deepcopy(analogy), id="homonym", supporting_refs=["Music/Rhythm and Meter.md#^rests", "Systems/Consensus.md#Families"],
                   claim="Rhythm and Meter and Consensus share one pattern around rests. Rhythm and Meter: “Beginners "
                         "rush through rests; good players wait them out fully.” Consensus: “Everything rests on "
                         "Quorum intersection.”")
    (tmp_path / "candidates.yaml").write_text(yaml.safe_dump([analogy, homonym]), encoding="utf-8")
    result = CliRunner().invoke(main, ["critique", str(tmp_path / "candidates.yaml"), str(vault)])
    assert "analogy: kept" in result.output, result.output
    assert "homonym: rejected" in result.output and "  homonym:" in result.output


def test_two_subfolders_of_one_folder_are_not_side_by_side(tmp_path):
    from walker.walk.engines.extractive import _domains

    vault = write_vault(tmp_path / "vault", {
        "Testing/Smoke/Plan.md": "# Plan\n\nWe still have no automated test for the renderer.\n",
        "Testing/Smoke/Steps.md": "# Steps\n\nOpen the console and click the button.\n",
        "Testing/HTML/Query.md": "# Query\n\nThe goal is an automated test of the renderer.\n",
        "Notes/One.md": "# One\n\nA note.\n", "Notes/Two.md": "# Two\n\nAnother note.\n",
    })
    other = Workspace.open(vault)
    hood = Neighbourhood(Seed("Notes/One.md", "", "Notes/One.md", "given", ""), (), (), (), (), ())
    context = WalkContext(other.corpus, other.index, other.links, hood, CriticContext(other.corpus, other.index, set(), []), {})
    assert _domains(context, "Testing/Smoke/Plan.md", "Testing/Smoke/Steps.md") == ONE_FOLDER
    assert _domains(context, "Testing/Smoke/Plan.md", "Testing/HTML/Query.md") != ONE_FOLDER


NAMED = {
    "Styling/Styling the Backlinks.md": "# Styling the Backlinks\n\nIt shows that the backlink, the file and heading "
                                        "names, can quite dominate the results.\n",
    "Testing/Nested Backlinks.md": "# Nested Backlinks\n\nEvery task shows its backlink, so nested tasks repeat the "
                                   "heading of their parent until it dominates the list.\n",
}


def test_titles_never_decide_a_kind(tmp_path):
    """"backlink" in both titles ("Nested Backlinks", "Styling the Backlinks") says nothing the two passages do not:
    the same passages under another title make a candidate of the same kind, worded from the passages."""
    found = []
    for title in ("Nested Backlinks", "Nested Tasks"):
        vault = copy_vault_files(SAMPLE_VAULT, tmp_path / title)
        files = {path.replace("Nested Backlinks", title): text.replace("Nested Backlinks", title)
                 for path, text in NAMED.items()}
        candidate = pair_candidate(Workspace.open(write_vault(vault, files)), *files)
        assert candidate is not None and title not in candidate.claim.split("“")[0].split(" says ")[1]
        found.append(candidate.kind)
    assert found[0] == found[1]


@pytest.mark.parametrize("group, found", [("near", True), ("middle", False), ("far", False)])
def test_two_near_items_are_paired_and_two_middle_or_far_ones_are_not(ws, group, found):
    """Two notes both close to the seed may be each other's missing link; two drawn for their distance from it
    were not chosen for each other."""
    from walker.wander import Item

    seed = "Questions.md"
    items = tuple(Item(p, p, group, None, 0.1, (), "test") for p in ("Kitchen/Levain Build.md", "Systems/Cache Warming.md"))
    hood = Neighbourhood(Seed(seed, "", seed, "given", ""), *((items, (), ()) if group == "near" else
                         ((), items, ()) if group == "middle" else ((), (), items)), (), ())
    critic = CriticContext(ws.corpus, ws.index, {seed, *(i.path for i in items)}, [])
    context = WalkContext(ws.corpus, ws.index, ws.links, hood, critic, {})
    engine = ExtractiveEngine()
    bridges = {frozenset(end.path for end in c.bridge) for c in engine.roam(context, engine.inventory(context))}
    assert (frozenset(i.path for i in items) in bridges) is found


def test_a_key_phrase_never_runs_across_punctuation(ws):
    """"overshoot, oscillation and hysteresis" lists three things: "overshoot oscillation" is no phrase, and a situation
    that says "a note about “overshoot oscillation”" reads as nonsense."""
    from walker.walk.kinds import key_phrases

    found = key_phrases("The thermostat showed overshoot, oscillation and hysteresis (levain, mulch, compost); quorum, "
                        "leader.", ws.index, 6)
    assert "thermostat showed" in found
    assert not {"overshoot oscillation", "levain mulch", "mulch compost", "quorum leader", "compost quorum"} & set(found)


def test_a_japanese_thread_is_quoted_as_the_passages_write_it(tmp_path):
    """Japanese is read in words (MeCab): a thread is quoted as words the passages write ("付箋", "要点"), never as
    pairs of characters run together ("資料料をを読読ん"), which no passage says and the gate refused as a fact from
    outside."""
    a, b = "読書/要約.md", "仕事/会議準備.md"
    ws = Workspace.open(write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        a: "# 要約\n\n電車で議事録を読んだ後、付箋に要点を書き出すと、翌日まで論点をよく覚えていられる。\n",
        b: "# 会議準備\n\n会議の前に議事録を読み返し、付箋に要点を書き出すだけで、論点の流れを見失わずに済む。\n",
    }))
    found = pair_candidate(ws, a, b)
    assert found is not None and "“付箋”" in found.claim and "“要点”" in found.claim, found
    (verdict,) = gate([found], pair_context(ws, a, b).critic)
    assert verdict.accepted, verdict
