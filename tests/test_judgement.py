"""The fitted judgements (walker.fitted): each scored on items written apart from its fit set, by an author who saw
neither the fit set nor walker's rules (bench/judgement/check/, never fitted on). The figures are bench/README.md's."""

from pathlib import Path

import pytest
import yaml

from walker import fitted
from walker.walk.facts import absent_facts
from walker.words import normal

CHECK = Path(__file__).resolve().parents[1] / "bench" / "judgement" / "check"


def right(name, judge):
    rows = yaml.safe_load((CHECK / f"{name}.yaml").read_text(encoding="utf-8"))
    return sum(judge(r) == (r["label"] == "bad") for r in rows) / len(rows)


@pytest.mark.parametrize("name, measured", [("unfalsifiable", 0.97), ("vague_situation", 0.97),
                                            ("vague_falsifier", 0.88), ("refused_impact", 0.99)])
def test_each_judgement_of_one_field_keeps_its_figure_on_items_written_apart(name, measured):
    assert right(name, lambda r: fitted.is_bad(name, r["text"])) >= min(0.9, measured - 0.02)


def test_outside_facts_are_found_by_their_shape_and_what_they_find_is_outside():
    """Names, numbers, jargon, citations, prior conclusions: few outside facts, seldom a good claim (bench/README.md)."""
    rows = yaml.safe_load((CHECK / "outside_fact.yaml").read_text(encoding="utf-8"))
    said = [absent_facts(r["text"], normal(" ".join(r["passages"])), set()) is not None for r in rows]
    truth = [r["label"] == "bad" for r in rows]
    hit = sum(s and t for s, t in zip(said, truth))
    assert hit / sum(said) >= 0.75 and hit / sum(truth) >= 0.25  # measured: 17 of 22, 17 of 60


def test_a_rule_that_belongs_to_something_the_passages_name_is_no_citation():
    """"the kiln's rule" cites the kiln the passages describe; "Hofstadter's law" cites a source they lack."""
    passages = normal("The kiln cracks any pot fired before it has dried a week. Glaze runs if applied too thick.")
    assert absent_facts("The kiln's rule, a week of drying first, applies to glazing too.", passages, set()) is None
    assert "Hofstadter's law" in absent_facts("Hofstadter's law explains why the drying week runs long.", passages, set())


@pytest.mark.parametrize("text", ["If it turns out to be wrong.", "如果以后发现不对的话。", "If later reflection suggests otherwise."])
def test_a_falsifier_that_names_no_observation_is_vague(text):
    assert fitted.is_bad("vague_falsifier", text)


@pytest.mark.parametrize("text", ["Hard to say, it could go either way.", "说不好，两种可能都有。", "It might matter."])
def test_an_impact_reason_that_gives_none_is_refused(text):
    assert fitted.is_bad("refused_impact", text)


@pytest.mark.parametrize("text", ["Both notes point to one deeper truth.", "两篇笔记在更深的层面上是相通的。",
                                  "There is a quiet wisdom shared by both."])
def test_vague_profundity_is_unfalsifiable(text):
    assert fitted.is_bad("unfalsifiable", text)


def test_a_model_is_data_and_every_judgement_has_one():
    for name in fitted.JUDGEMENTS:
        model = fitted._model(name)
        assert set(model) >= {"bias", "weights", "strength"} and all(isinstance(w, float) for w in model["weights"].values())


def test_a_number_reckoned_from_the_passages_numbers_is_no_outside_fact():
    passages = normal("The rent rose by 180 a month. The cuts in the budget come to 125.")
    assert "55" not in (absent_facts("The cuts cover 125 of the 180 rise, leaving 55 still to find.", passages, set()) or "")
    assert "2019" in absent_facts("The cuts cover 125 of the 180 rise, as 2019 showed.", passages, set())


@pytest.mark.parametrize("passages, claim", [
    # a possessive is a form of the name the passages use
    ("Tomas repotted the fig in March. The fig dropped its leaves in April.", "Tomas's repotting in March came just before April's leaf drop."),
    # an inflection of an ordinary word is ordinary
    ("The pump loses pressure when two taps run. The fountain sputters at noon.", "Both show a supply that falters once demand doubles."),
    ("The lamp was left on overnight. The heater ran all night too.", "Both appliances ran unwatched through the night."),
    # "took effect" and "an effect" cite no one
    ("From May the team stopped meetings on Fridays. Fridays in May had twice the commits.", "Once the no-meeting rule took effect, Friday commits doubled."),
    # a Latin name written inside a Chinese phrase is the passages' own
    ("单元测试在本地通过，到CI上失败了。", "环境不同，CI挂了而本地没事。"),
    # a number the passages' numbers give, step by step, or as a share of a per cent
    ("Rent is 1,500 a month; Ana pays 60 per cent.", "Ana's share comes to 900 a month."),
    ("The book has 3600 words to learn in 60 days. After 24 days, 1200 are done.",
     "At 60 a day, 24 days should have covered 1440, so the plan is 240 behind."),
    # a decision the passages record in other words
    ("At the retro the team chose to pair on every migration.", "The retro had already settled on pairing, and paired migrations never rolled back."),
])
def test_what_the_passages_say_in_another_form_is_no_outside_fact(passages, claim):
    assert absent_facts(claim, normal(passages), set()) is None


@pytest.mark.parametrize("claim, found", [
    ("Both follow Marta's advice.", "Marta"),
    ("Both rest on the placebo theory the clinic quoted.", "placebo theory"),
    ("The plan is 250 behind, as the tutor warned in 2019.", "2019"),
])
def test_outside_facts_in_those_shapes_are_still_found(claim, found):
    passages = normal("The book has 3600 words to learn in 60 days. After 24 days, 1200 are done.")
    assert found in (absent_facts(claim, passages, set()) or "")


SOURCE_PASSAGES = ("The vent opened late and the greenhouse overshot to 31 degrees before it closed again.",
                   "The autoscaler reads a five-minute average, so it adds servers after the spike has passed.")


@pytest.mark.parametrize("claim", [
    "Both overshoot because the sensor is slow, just as the incident review warned.",
    "A slow sensor makes both overshoot, which control textbooks back up.",
    "Both react late to a slow reading, according to the vendor's manual.",
    "Both overshoot on a slow reading, a well-known trap.",
    "The whole effect is explained at https://example.org/slow-sensors.",
    "两处都因为读数滞后而过冲，正如运维老王说的那样。",
    "两处都是读数太慢导致过冲，俗话说慢半拍。",
])
def test_a_source_the_passages_do_not_name_is_an_outside_fact(claim):
    """A claim that leans on someone else's word (a review, a manual, received wisdom, a web page) brings material
    from outside the vault, in whatever words it cites it."""
    assert absent_facts(claim, normal(" ".join(SOURCE_PASSAGES)), set()) is not None


@pytest.mark.parametrize("claim", [
    "Both overshoot because the reading is late: the vent closed after 31 degrees, and the autoscaler adds servers "
    "after the spike, as the second note says.",
    "The greenhouse note shows the same lag the autoscaler note describes: both act on an old reading.",
    "The notes don't say why the vent opened late, only that the greenhouse overshot.",
    "两条笔记都说明，读数滞后会让温室和自动扩容都慢半拍。",
])
def test_relaying_what_the_cited_notes_say_is_no_outside_source(claim):
    """The cited material as the agent ("as the second note says"), a negation, or no agent at all: nothing from
    outside the vault."""
    assert absent_facts(claim, normal(" ".join(SOURCE_PASSAGES)), set()) is None


@pytest.mark.parametrize("claim", [
    "The author even says the autoscaler acts on an old reading, and the vent overshot to 31 degrees.",
    "作者自己也提到，自动扩容总是在峰值过去之后才加服务器。",
])
def test_the_author_of_the_notes_is_their_own_voice(claim):
    """What "the author" says is what the notes say: the person who keeps them is no outside source."""
    assert absent_facts(claim, normal(" ".join(SOURCE_PASSAGES)), set()) is None
    assert absent_facts("The author of that textbook says both overshoot.", normal(" ".join(SOURCE_PASSAGES)), set())


@pytest.mark.parametrize("claim", [
    "The greenhouse vent is a tested case of the Autoscaler principle: act on a reading and it is already old.",
    "The vent note's rule, open before the heat arrives, is the autoscaler's too.",
])
def test_a_rule_owned_by_a_cited_note_is_no_citation(claim):
    """"the Autoscaler principle" (a cited note's title) and "the note's rule" are the vault's own material."""
    assert absent_facts(claim, normal(" ".join(SOURCE_PASSAGES)), {"autoscaler", "greenhouse vent"}) is None


def test_a_chinese_quotation_of_english_passages_is_read_as_a_translation():
    """A quotation in a script no cited passage is written in cannot be matched word for word: it is the claim's own
    rendering. A law or effect it names is still a citation."""
    passages = normal(" ".join(SOURCE_PASSAGES))
    assert absent_facts("两处都是“等读数到了，峰值已经过去”：温室过冲到31度，自动扩容在峰值后才加服务器。", passages, set()) is None
    assert "牛鞭效应" in absent_facts("两处都是“牛鞭效应”：读数滞后让系统过冲。", passages, set())
    assert "牛鞭效应" in absent_facts("两处都是牛鞭效应：读数滞后让系统过冲。", passages, set())
    assert absent_facts("按后者原理，自动扩容在峰值后才加服务器。", passages, set()) is None  # the cited note's own
    assert "“the spike was late”" in absent_facts("Both say “the spike was late”.", passages, set())  # same script


@pytest.mark.parametrize("text", ["if the two notes turn out to give different oven temperatures for the same loaf",
                                  "if the Pruning note already links to Apple Trees"])
def test_a_falsifier_about_the_notes_themselves_names_an_observation(text):
    """A duplicate's or a missing link's falsifier is a check on the notes: a link there, numbers that differ."""
    assert not fitted.is_bad("vague_falsifier", text)


def test_a_falsifiers_leading_if_is_no_evidence_either_way():
    assert fitted.reading("vague_falsifier", "If the loaf collapses") == fitted.reading("vague_falsifier", "the loaf collapses")


def test_a_month_is_held_by_a_date_the_cited_notes_give():
    """"The 31 October note" names the daily note 2026-10-31, not a fact from outside."""
    passages = normal("Is there a rule for when to wait and when to act?")
    assert absent_facts("The 31 October note asks when to wait.", passages, {"2026-10-31"}) is None
    assert "October" in absent_facts("The 31 October note asks when to wait.", passages, {"2026-11-02"})


def test_a_conclusion_settled_last_season_needs_a_passage_that_records_it():
    passages = normal("Is there a rule for when to wait and when to act?")
    assert "last spring" in absent_facts("It is the rule you settled on last spring.", passages, set())
