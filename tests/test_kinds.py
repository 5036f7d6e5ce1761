"""Kinds of hypothesis: each is found where it should be, and each kind's disconfirm_if can be checked."""

import copy
import re

import pytest
import yaml
from click.testing import CliRunner
from conftest import REAL_VAULTS, SAMPLE_VAULT, copy_vault_files, write_vault

from walker.cli import main
from walker.walk.critic import CriticContext
from walker.walk.engines.base import InventoryEntry, WalkContext
from walker.walk.engines.extractive import ExtractiveEngine, Propositions
from walker.walk.kinds import (
    APART,
    DOMAIN_APART,
    ONE_DOMAIN,
    ONE_FOLDER,
    Pair,
    classify,
    disconfirmed,
)
from walker.walk.sense import cohesive, everyday_terms, thread
from walker.wander import Neighbourhood, Seed, find_hubs
from walker.workspace import Workspace


@pytest.fixture(scope="module")
def ws():
    return Workspace.open(SAMPLE_VAULT)


def hypothesis(ws, a, b):
    critic = CriticContext(ws.corpus, ws.index, {a, b}, [])
    hood = Neighbourhood(Seed(a, "", a, "given", ""), (), (), (), tuple(find_hubs(ws.links, ws.wander_settings)), ())
    context = WalkContext(ws.corpus, ws.index, ws.links, hood, critic, {})
    ends = [InventoryEntry(p, ws.corpus.notes[p].title, g, p, (), "x", p) for p, g in ((a, "seed"), (b, "far"))]
    return ExtractiveEngine().hypothesis(context, Propositions(context), *ends)


@pytest.mark.parametrize("a, b, kind", [
    ("Kitchen/Levain Build.md", "Systems/Cache Warming.md", "analogy"),  # warm it just before the peak
    ("Questions.md", "Garden/Waiting on Predators.md", "answer"),  # when is waiting wise?
    ("Systems/Timeouts.md", "Systems/Retries and Backoff.md", "tension"),  # never retry / often worth retrying
])
def test_each_kind_is_found_where_it_is(ws, a, b, kind):
    candidate = hypothesis(ws, a, b)
    assert candidate is not None and candidate.kind == kind
    # Its claim quotes both passages and says when it applies in the passages' words, not by titles alone.
    assert len(re.findall(r"“[^”]{20,}”", candidate.claim)) == 2
    titles = {ws.corpus.notes[a].title, ws.corpus.notes[b].title}
    assert all(not any(t in situation for t in titles) for situation in candidate.applies_when[:1])


def test_a_connection_the_author_already_made_is_no_discovery(ws):
    """The music note says "as in Acid" itself: bridging it to Acid tells the owner what they wrote."""
    assert hypothesis(ws, "Kitchen/Acid.md", "Music/Tension and Release.md") is None
    assert hypothesis(ws, "Kitchen/Levain Build.md", "Systems/Cache Warming.md") is not None  # neither names the other


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


def test_one_word_in_two_senses_makes_no_hypothesis(ws):
    assert hypothesis(ws, "Garden/Pruning.md", "Systems/Git Branches.md") is None  # branches
    assert hypothesis(ws, "Music/Rhythm and Meter.md", "Systems/Consensus.md") is None  # rests


def pair(ws, a, b, *, same_concept=False, linked=False, domains=APART):
    joined = thread(a, b, ws.index, same_concept)
    return Pair("A", "B", a, b, joined, same_concept, linked, domains, everyday_terms(a, b, joined.terms, ws.index),
                cohesive(joined.terms, ws.index))


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
    ("analogy", dict(a=LEVAIN, b=CACHE), dict(a=LEVAIN, b=OFTEN)),  # no words in one sense: no mechanism shared
    ("analogy", dict(a=LEVAIN, b=CACHE), dict(a=LEVAIN, b=CACHE, domains=ONE_DOMAIN)),  # one domain: no analogy
    ("missing-link", dict(a=LEVAIN, b=CACHE, domains=ONE_DOMAIN),
     dict(a=LEVAIN, b=CACHE, domains=ONE_DOMAIN, linked=True)),
])
def test_disconfirm_if_is_false_for_a_good_example_and_true_for_a_bad_one(ws, kind, good, bad):
    found = pair(ws, good.pop("a"), good.pop("b"), **good)
    assert classify(found) == kind
    assert not disconfirmed(kind, found)
    assert disconfirmed(kind, pair(ws, bad.pop("a"), bad.pop("b"), **bad))


CROWN = "Thin the crown so light and air reach the middle of the tree."
BEDS = "Four beds, 1.2 m wide so I can reach the middle without stepping in."


def test_everyday_words_join_nothing_and_specific_ones_do(ws):
    # "middle" is among the commonest words of English; "reach" alone is one word: no thread.
    assert classify(pair(ws, CROWN, BEDS)) is None
    assert classify(pair(ws, LEVAIN, CACHE)) == "analogy"  # "warm" and "peak": not everyday, in one sense


@pytest.mark.parametrize("vault, a, b", [
    # "confirming my understanding of the behaviour" / "to understand the behaviour"
    ("tasks-demo", "Functions/Custom Filters With Complex Caching.md",
     "Manual Testing/Scheduled Date Implied/Search for Scheduled Dates.md"),
    # "phrases that the Tasks plugin recognises" / "It recognises Tasks' emojis"
    ("obsidian-tasks-docs", "Editing/Auto-Suggest.md", "How To/Show tasks in a calendar.md"),
])
def test_words_about_knowing_are_no_thread(vault, a, b):
    """Two authors saying they understood or recognised something share words about knowing, not a subject."""
    assert hypothesis(Workspace.open(REAL_VAULTS / vault), a, b) is None


def test_a_real_vaults_missing_link_survives_the_words_about_knowing():
    demo = Workspace.open(REAL_VAULTS / "tasks-demo")
    assert hypothesis(demo, "Manual Testing/Invalid dates with Sorting and Grouping.md",
                      "Manual Testing/Recurrence handling invalid dates.md") is not None


def test_words_the_vault_never_uses_together_are_no_concept(ws):
    # Both passages name a metronome and something anaerobic, but no note of the vault speaks of both.
    stray = pair(ws, "The metronome sat on the shelf above the anaerobic heap.",
                 "An anaerobic smell reached the metronome on the piano.")
    assert len(stray.specific) == 2 and not stray.cohesive and classify(stray) is None
    assert pair(ws, LEVAIN, CACHE).cohesive  # "warm" and "peak" go together in the vault's notes


def test_one_passage_pasted_into_two_notes_is_no_discovery(ws):
    assert classify(pair(ws, LEVAIN, LEVAIN, domains=ONE_DOMAIN)) is None


@pytest.mark.parametrize("domains, kind", [(APART, "analogy"), (ONE_DOMAIN, "missing-link"), (ONE_FOLDER, None)])
def test_where_two_notes_sit_decides_what_their_thread_can_mean(ws, domains, kind):
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
        "impact_reason": "the two notes are not linked, so the bridge adds a connection the vault lacks",
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


def test_a_two_word_term_is_a_thread_with_another_shared_word_not_alone(ws):
    """"worm bin" is one concept named in two words, a thread with the scraps both passages feed it; alone, a
    two-word term was mostly a stock phrase ("for performance reasons") or a button's name ("pencil icon")."""
    with_more = pair(ws, "Kitchen scraps go to the worm bin before they reach the heap.",
                     "The worm bin heats and smells when scraps pile up faster than the worms eat.", domains=ONE_DOMAIN)
    assert "worm bin" in with_more.specific and len(with_more.thread.terms) >= 2
    assert classify(with_more) == "missing-link"
    alone = pair(ws, "Kitchen peelings go to the worm bin before they reach the heap.",
                 "The worm bin heats and smells when food piles up faster than the worms eat.", domains=ONE_DOMAIN)
    assert alone.specific == ("worm bin",) and alone.specific_words == 2
    assert classify(alone) is None
    one_word = pair(ws, "Kitchen scraps go to the bin before they reach the heap.",
                    "The worm bin heats and smells when food piles up faster than the worms eat.", domains=ONE_DOMAIN)
    assert one_word.specific_words < 2 and classify(one_word) is None


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
                                   "filename of their parent.\n",
}


@pytest.mark.parametrize("title, kind", [("Nested Backlinks", "missing-link"), ("Nested Tasks", None)])
def test_notes_named_for_one_concept_need_no_second_shared_word(tmp_path, title, kind):
    """"backlink" (with "shows", which any two sentences share) joins two notes only because both are named for it:
    the same two passages under another title share one word, which could be used in two senses."""
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    files = {path.replace("Nested Backlinks", title): text.replace("Nested Backlinks", title)
             for path, text in NAMED.items()}
    named = Workspace.open(write_vault(vault, files))
    candidate = hypothesis(named, *files)
    assert (candidate and candidate.kind) == kind
    if candidate:
        assert "“backlink” yet no chain" in candidate.claim.replace(",", "")  # the concept, not "shows"


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
