"""Seeds and near / middle / far neighbourhoods (protocol §11.2, §11.3)."""

import json
from datetime import datetime

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files, real_vault, write_vault

from walker.cli import main
from walker.seeds import candidate_seeds, choose_seed
from walker.similarity import MAX_PROSE
from walker.wander import (
    CLOSE,
    NEAR_DUPLICATE,
    Seed,
    WanderError,
    neighbourhood,
    propose,
)
from walker.workspace import Workspace


def walk_from(ws, path, random_seed=0):
    proposition, ref = propose(ws.index, ws.corpus.notes[path])
    return neighbourhood(ws.corpus, ws.index, ws.links, Seed(path, proposition, ref, "given", ""),
                         ws.wander_settings, random_seed)


def folder(path):
    return path.rsplit("/", 1)[0] if "/" in path else ""


def assert_far_is_far(ws, result):
    seed_note = ws.corpus.notes[result.seed.path]
    seed_tags = {t.lower() for t in seed_note.tags}
    deepest_near = max((i.distance for i in result.near if i.distance in (1, 2)), default=0)
    for item in result.far:
        assert item.distance is None or item.distance > deepest_near, item
        assert item.similarity < NEAR_DUPLICATE
        assert not seed_tags & {t.lower() for t in ws.corpus.notes[item.path].tags}, item
        assert not folder(item.path).startswith(folder(result.seed.path) or "\0"), item
        assert item.reason


@pytest.fixture(scope="module")
def sample(sample_vault):
    return Workspace.open(sample_vault)


@pytest.fixture(scope="module")
def tasks_docs():
    root = real_vault("obsidian-tasks-docs")
    return Workspace.open(root)


@pytest.mark.parametrize("seed", ["Kitchen/Sourdough Starter.md", "Systems/Backpressure.md", "Music/Cadences.md",
                                  "Garden/Soil Biology.md"])
def test_sample_vault_groups(sample, seed):
    result = walk_from(sample, seed, random_seed=7)
    assert 5 <= len(result.near) <= 10
    assert 5 <= len(result.middle) <= 10
    assert 3 <= len(result.far) <= 5
    # Near is within two links, or close in words where no chain of two links reaches (at most half of near).
    unlinked = [i for i in result.near if i.distance not in (1, 2)]
    assert all(i.similarity >= CLOSE for i in unlinked) and len(unlinked) <= len(result.near) // 2
    assert len({i.path for i in result.items}) == len(result.items)  # no item twice
    assert result.seed.path not in {i.path for i in result.items}
    assert "Home.md" in result.hubs and "Home.md" not in {i.path for i in result.items}
    assert_far_is_far(sample, result)


def test_a_note_close_in_words_that_no_link_reaches_is_near(sample, tmp_path):
    """Cover Crops says what Companion Planting says of roots and nitrogen: no link joins them, and before near held
    notes close in words they were in no group (too close for middle); a missing link is found among such notes.
    A note so close in words that it may be a second copy is near too: a duplicate is found among those."""
    near = {i.path: i for i in walk_from(sample, "Garden/Companion Planting.md", random_seed=3).near}
    assert near["Garden/Cover Crops.md"].distance is None
    assert "not linked" in near["Garden/Cover Crops.md"].reason
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    text = (vault / "Garden" / "Cover Crops.md").read_text(encoding="utf-8")
    (vault / "Inbox" / "Winter Cover.md").write_text(text.replace("# Cover Crops", "# Winter Cover"), encoding="utf-8")
    copy = walk_from(Workspace.open(vault), "Garden/Cover Crops.md", random_seed=3)
    near = {i.path: i for i in copy.near}
    assert near["Inbox/Winter Cover.md"].distance is None and near["Inbox/Winter Cover.md"].similarity >= NEAR_DUPLICATE


def test_far_draws_follow_threads_and_one_is_uniform(sample):
    far = walk_from(sample, "Kitchen/Sourdough Starter.md", random_seed=7).far
    assert "uniform draw" in far[-1].reason
    assert any(i.rare_terms for i in far[:-1])


def test_tasks_docs_groups(tasks_docs):
    for seed in ["Getting Started/Dates.md", "Queries/Filters.md", "Advanced/Urgency.md"]:
        result = walk_from(tasks_docs, seed, random_seed=1)
        assert result.near and result.middle and result.far, result.notes
        assert_far_is_far(tasks_docs, result)


def test_same_random_seed_same_output_other_seed_other_far(sample):
    one = walk_from(sample, "Systems/Backpressure.md", random_seed=1)
    assert one == walk_from(sample, "Systems/Backpressure.md", random_seed=1)
    others = {tuple(i.path for i in walk_from(sample, "Systems/Backpressure.md", random_seed=s).far) for s in range(2, 6)}
    assert any(far != tuple(i.path for i in one.far) for far in others)


def test_refs_point_into_the_note(sample):
    result = walk_from(sample, "Music/Cadences.md")
    for item in result.items:
        assert item.ref.startswith(item.path)
    assert result.seed.ref == "Music/Cadences.md#^deceptive" or result.seed.ref.startswith("Music/Cadences.md#")
    assert len(result.seed.proposition.split()) >= 6


def test_seed_sources(sample):
    found = candidate_seeds(sample.corpus, sample.index, sample.links, datetime(2026, 11, 30))
    assert set(found) == {"recent", "revisited", "open-question", "forgotten"}
    assert found["open-question"][0].path == "Questions.md"
    assert "Kitchen/Mise en Place.md" in [s.path for s in found["forgotten"]]
    assert all(s.reason and s.proposition for group in found.values() for s in group)
    assert not any(s.path == "Home.md" for group in found.values() for s in group)


def test_seed_rotation_and_no_reuse(sample):
    import random
    found = candidate_seeds(sample.corpus, sample.index, sample.links, datetime(2026, 11, 30))
    first = choose_seed(found, 2, [], random.Random(0))
    assert first.source == "open-question"
    again = choose_seed(found, 2, [first.path], random.Random(0))
    assert again.path != first.path
    assert choose_seed(found, 3, [], random.Random(0)).source == "forgotten"


def test_an_empty_source_gives_its_turns_to_all_the_others_in_turn():
    import random
    from collections import Counter

    def seeds(source, n):
        return [Seed(f"{source}-{i}.md", "A sentence worth quoting from this note.", f"{source}-{i}.md", source, "", 1)
                for i in range(n)]

    found = {"recent": [], "revisited": seeds("revisited", 9), "open-question": seeds("open-question", 9),
             "forgotten": seeds("forgotten", 9)}
    chosen = [choose_seed(found, n, [], random.Random(n)).source for n in range(9)]
    assert Counter(chosen) == {"revisited": 3, "open-question": 3, "forgotten": 3}  # not revisited twice as often
    everything = dict(found, recent=seeds("recent", 9))
    assert [choose_seed(everything, n, [], random.Random(0)).source for n in range(4)] == \
        ["recent", "revisited", "open-question", "forgotten"]


def test_a_source_offers_its_best_first_and_a_tie_is_drawn_not_settled_by_the_alphabet(tmp_path):
    import random

    def seed(path, score):
        return Seed(path, "A sentence worth quoting from this note.", path, "open-question", "asks", score)

    ranked = {"open-question": [seed("Z.md", 2), seed("A.md", 1), seed("B.md", 1)]}
    assert {choose_seed(ranked, 0, [], random.Random(n)).path for n in range(20)} == {"Z.md"}
    notes = {f"Q/{name}.md": f"Why does the {name.lower()} bed drain so slowly after the autumn rain?\n\n- [ ] dig a test pit"
             for name in ("Apple", "Birch", "Cedar")}
    notes |= {f"Filler/f{i}.md": f"Filler note {i} about weather number {i} and nothing else." for i in range(20)}
    ws = Workspace.open(write_vault(tmp_path, notes))
    first = {candidate_seeds(ws.corpus, ws.index, ws.links, datetime(2026, 11, 30),
                             rng=random.Random(n))["open-question"][0].path for n in range(20)}
    assert first == {"Q/Apple.md", "Q/Birch.md", "Q/Cedar.md"}


SHARED = "Mycorrhiza hyphae trade phosphorus for sugar, a symbiosis older than roots."


def partnered_vault(tmp_path, **extra):
    """Thirty forgotten notes that share no rare word with any other, and four that share four."""
    words = ["amber", "basalt", "cobalt", "dune", "ember", "fjord", "glacier", "heath", "inlet", "jetty", "karst",
             "lagoon", "moraine", "nimbus", "oxbow", "prairie", "quarry", "ravine", "savanna", "tundra", "upland",
             "valley", "wadi", "xeric", "yardang", "zephyr", "atoll", "bayou", "cirque", "delta"]
    notes = {f"Alone/{word}.md": f"The {word} keeps its own odd story, told once and never again here." for word in words}
    notes |= {f"Fungi/f{i}.md": f"{SHARED} Note {i} says more about it." for i in range(4)}
    return Workspace.open(write_vault(tmp_path, notes | extra))


def test_forgotten_seeds_are_drawn_from_the_notes_a_walk_can_pair(tmp_path):
    """A walk from a note that shares its rare words with no other note has nothing to find: of forgotten notes that
    tie, the ones other notes share rare words with are offered first, whatever the draw."""
    import random

    ws = partnered_vault(tmp_path)
    assert ws.index.partners(["Fungi/f0.md", "Alone/amber.md"], 3) == {"Fungi/f0.md": 3, "Alone/amber.md": 0}
    for n in range(10):
        found = candidate_seeds(ws.corpus, ws.index, ws.links, datetime(2026, 11, 30), rng=random.Random(n))
        offered = [s.path for s in found["forgotten"]]
        assert set(offered[:4]) == {f"Fungi/f{i}.md" for i in range(4)}
        assert "3 other notes use 3 of its rare words" in found["forgotten"][0].reason


def test_of_open_questions_that_tie_the_one_with_partners_comes_first(tmp_path):
    import random

    ws = partnered_vault(tmp_path, **{"Q/Roots.md": f"{SHARED}\n\n- [ ] ask the soil lab",
                                      "Q/Kites.md": "Kites fly best in a steady breeze off the sea.\n\n- [ ] buy string"})
    for n in range(10):
        found = candidate_seeds(ws.corpus, ws.index, ws.links, datetime(2026, 11, 30), rng=random.Random(n))
        assert [s.path for s in found["open-question"]] == ["Q/Roots.md", "Q/Kites.md"]
        assert choose_seed(found, 2, [], random.Random(n)).path == "Q/Roots.md"


def test_forgotten_notes_that_tie_are_not_offered_in_the_alphabets_order(tmp_path):
    import random

    notes = {f"{folder}/n{i}.md": f"The {folder.lower()} bed number {i} drains slowly after the autumn rain."
             for i in range(8) for folder in ("Alpha", "Beta", "Gamma", "Delta", "Omega")}
    ws = Workspace.open(write_vault(tmp_path, notes))
    listed = candidate_seeds(ws.corpus, ws.index, ws.links, datetime(2026, 11, 30))["forgotten"]
    assert {s.path.split("/")[0] for s in listed} == {"Alpha", "Beta"}  # a listing: by path
    walked = set()
    for n in range(5):
        found = candidate_seeds(ws.corpus, ws.index, ws.links, datetime(2026, 11, 30), rng=random.Random(n))
        walked |= {s.path.split("/")[0] for s in found["forgotten"]}
    assert walked == {"Alpha", "Beta", "Gamma", "Delta", "Omega"}


def test_a_note_with_more_to_say_is_drawn_more_often_and_a_fixture_still_can_be(tmp_path):
    """Every unlinked note ties as forgotten; a walk joins passages, so the draw favours the note that says more."""
    import random

    notes = {f"Fixtures/f{i}.md": f"Fixture {i} holds one task that sorts before the others.\n\n- [ ] task {i}\n"
             for i in range(40)}
    notes["Essays/Mulch.md"] = "\n\n".join(
        f"Mulch keeps the soil under bed {i} cool and damp through the dry weeks of summer, and worms come up "
        f"to feed under it at night." for i in range(12))
    ws = Workspace.open(write_vault(tmp_path, notes))
    assert ws.index.prose["Essays/Mulch.md"] == MAX_PROSE and ws.index.prose["Fixtures/f0.md"] == 1
    drawn = [candidate_seeds(ws.corpus, ws.index, ws.links, datetime(2026, 11, 30), rng=random.Random(n))["forgotten"]
             for n in range(20)]
    assert sum("Essays/Mulch.md" in {s.path for s in found} for found in drawn) >= 15  # 10 of 41 if drawn evenly: 5 of 20
    assert len({s.path for found in drawn for s in found if s.path.startswith("Fixtures/")}) > 20


def test_a_paragraph_copied_into_many_notes_seeds_none_of_them(tmp_path):
    stock = "The settings pane has a one-click button that adds the custom checkboxes of this theme to your vault."
    notes = {f"Themes/Theme {i}.md": f"# Theme {i}\n\n{stock}\n" for i in range(4)}
    notes["Themes/Theme 0.md"] += "\nThis theme draws cancelled tasks with a strike through and a grey colour.\n"
    notes |= {f"Notes/n{i}.md": f"Soil keeps water {i} times longer when mulch covers the bed in summer. [[n{i + 1}]]"
              for i in range(25)}
    ws = Workspace.open(write_vault(tmp_path, notes))
    found = candidate_seeds(ws.corpus, ws.index, ws.links, datetime(2026, 11, 30))
    forgotten = {s.path: s.proposition for s in found["forgotten"]}
    assert not {"Themes/Theme 1.md", "Themes/Theme 2.md", "Themes/Theme 3.md"} & set(forgotten)
    assert forgotten.get("Themes/Theme 0.md", "").startswith("This theme draws cancelled tasks")


def test_small_vault_gets_a_clear_message(tmp_path):
    vault = write_vault(tmp_path, {f"n{i}.md": f"note {i} about soil [[n{i + 1}]]" for i in range(5)})
    with pytest.raises(WanderError, match="at least 20"):
        walk_from(Workspace.open(vault), "n1.md")
    result = CliRunner().invoke(main, ["neighbors", "n1", str(vault)])
    assert result.exit_code == 2 and "at least 20" in result.output


def test_single_note_vault(tmp_path):
    vault = write_vault(tmp_path, {"Only.md": "just one note"})
    result = CliRunner().invoke(main, ["neighbors", "Only", str(vault)])
    assert result.exit_code == 2 and "Error:" in result.output


def test_vault_without_links(tmp_path):
    words = ["soil compost worms", "raft quorum leader", "bread starter flour", "chord cadence tonic"]
    vault = write_vault(tmp_path, {f"{d}/n{i}.md": f"# Note {i}\n{words[i % 4]} and more {words[(i + 1) % 4]}\n"
                                   for i in range(24) for d in ["A" if i % 2 else "B"]})
    result = walk_from(Workspace.open(vault), "A/n1.md")
    assert result.near and all(i.distance is None and i.similarity >= CLOSE for i in result.near)  # close in words
    assert any("no links" in m for m in result.notes)


def test_unknown_note_suggests(sample_vault):
    result = CliRunner().invoke(main, ["neighbors", "Sourdough Starte", str(sample_vault)])
    assert result.exit_code == 2 and "Sourdough Starter" in result.output


def test_neighbors_json_contract(sample_vault):
    result = CliRunner().invoke(main, ["neighbors", "Backpressure", str(sample_vault), "--json", "--random-seed", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["seed"]) >= {"path", "proposition"}
    for group in ("near", "middle", "far"):
        for item in data[group]:
            assert set(item) >= {"path", "ref", "distance", "similarity", "shared_tags", "reason"}


def test_seeds_json(sample_vault):
    result = CliRunner().invoke(main, ["seeds", str(sample_vault), "--json", "--now", "2026-11-30T07:00"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["open-question"][0]["path"] == "Questions.md"
