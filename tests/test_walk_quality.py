"""Walk quality: the traps planted in sample-vault/, what a thread is (the subject of both passages, weighed against
the notes of each note's genre), pairs the vault already explains, and the one score that decides what a walk keeps."""

import math
import re
from datetime import date

import pytest
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, copy_vault_files, kept_candidate, pair_candidate, write_vault

from walker.cli import main
from walker.daily import daily_date
from walker.kinds.duplicate import one_name
from walker.pool.records import KINDS
from walker.walk.evidence import Evidence, Genres, everyday
from walker.walk.scorer import explain, floor, score
from walker.words import EVERYDAY_ZIPF, latin_language, zipf
from walker.workspace import Workspace


@pytest.fixture(scope="module")
def ws(sample_vault):
    return Workspace.open(sample_vault)


def test_two_notes_whose_titles_share_a_word_in_two_senses_are_never_kept(ws):
    """Spring the season and Spring the Java framework: "spring" (and "beans") in two senses."""
    assert kept_candidate(ws, "Garden/Spring Sowing.md", "Systems/Spring Retry Config.md") is None


def test_one_mechanism_in_two_domains_is_kept_as_an_analogy(ws):
    """A thermostat reading a probe buried in dough and an autoscaler reading a five-minute average: dead time,
    overshoot and oscillation. The two notes tell it over several sentences each, in different words."""
    found = kept_candidate(ws, "Kitchen/Proofing Box Thermostat.md", "Systems/Autoscaler Oscillation.md")
    assert found is not None and found.kind == "analogy"
    assert {"overshoot", "oscillation"} <= set(found.grounding["rare_terms"])
    for end in found.bridge:  # each quote is whole sentences in a row of the paragraph its ref opens
        assert re.fullmatch(r"[A-Z].*[.!?]", end.passage)


def test_two_notes_on_one_thing_are_kept_as_a_duplicate_that_says_which_to_merge(ws):
    found = kept_candidate(ws, "Kitchen/Brining.md", "Kitchen/Dry Brining Meat.md")
    assert found is not None and found.kind == "duplicate"
    assert "merge Dry Brining Meat into Brining, the fuller one" in found.claim
    assert found.merge_into.startswith("Kitchen/Brining.md")  # as data, for the conclusion note: no claim read back


def test_one_announcement_repeated_in_two_newsletters_is_never_kept(ws):
    assert kept_candidate(ws, "Daily/2026-11-07.md", "Daily/2026-11-14.md") is None


def test_three_weekly_runs_of_the_sample_vault_keep_three_kinds(tmp_path):
    vault = tmp_path / "vault"
    copy_vault_files(SAMPLE_VAULT, vault)
    runner = CliRunner()
    assert runner.invoke(main, ["init", str(vault)]).exit_code == 0
    for day in ("2026-12-04", "2026-12-11", "2026-12-18"):
        result = runner.invoke(main, ["run", str(vault), "--cadence", "weekly", "--force", "--now", f"{day}T07:50:00"])
        assert result.exit_code == 0, result.output
    kinds = {re.search(r"^kind: (\S+)", path.read_text(encoding="utf-8"), re.M).group(1)
             for path in (vault / "walks" / "active").glob("hyp-*.md")}
    assert len(kinds) >= 3 and kinds <= set(KINDS)


GENRE = {f"Papers/Paper {n}.md": f"# Paper {n}\n\nThe authors introduce a novel method for {topic}. Extensive experiments "
         f"demonstrate the effectiveness of the proposed approach on {place}.\n"
         for n, (topic, place) in enumerate([
             ("graph pruning", "citation graphs"), ("image denoising", "satellite photos"),
             ("speech tagging", "radio archives"), ("protein folding", "enzyme families"),
             ("traffic forecasting", "city sensors"), ("music transcription", "piano rolls"),
             ("code search", "open repositories"), ("crop mapping", "farm plots"),
             ("fraud detection", "card payments"), ("query rewriting", "search logs"),
             ("route planning", "delivery vans"), ("pose estimation", "dance videos")])}


def test_what_every_note_of_a_genre_says_is_no_thread(tmp_path):
    """Twelve paper summaries in one house style share "authors introduce", "extensive experiments" and
    "effectiveness": rare in the vault as a whole, and said by every note of the genre."""
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), GENRE)
    papers = Workspace.open(vault)
    genres = Genres(papers.corpus, papers.index)
    column = {str(t): i for i, t in enumerate(papers.index.terms)}
    assert genres.genre("Papers/Paper 0.md") == "Papers"
    assert genres.specificity("Papers/Paper 0.md", column["authors"]) < 0.05
    assert genres.specificity("Papers/Paper 0.md", column["pruning"]) == 1.0
    assert genres.genre("Home.md") is None  # a folder of fewer than ten notes has no genre to weigh against
    assert kept_candidate(papers, "Papers/Paper 0.md", "Papers/Paper 1.md") is None


def test_passages_that_both_speak_of_a_note_of_their_own_are_no_discovery(tmp_path):
    """Both passages are about the worm bin, and the vault has a note named Worm Bin: the link a reader wants is to
    that note, which Obsidian's unlinked mentions already offer."""
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        "Kitchen/Scraps.md": "# Scraps\n\nCoffee grounds and peelings feed the worm bin better than any bought bedding.\n",
        "Music/Practice Log.md": "# Practice Log\n\nBetween scales I carried peelings out to the worm bin, which now "
                                 "hums along to every bedding change.\n",
    })
    other = Workspace.open(vault)
    assert pair_candidate(other, "Kitchen/Scraps.md", "Music/Practice Log.md") is None


def test_a_thread_of_everyday_words_of_the_passages_own_language_is_no_thread(tmp_path):
    """Two German passages in a mostly English vault share "oder" and "wenn": everyday German, rare in this vault and
    rare in English. Read as German, they are no subject; two passages that share "Ablöseenergie" have one."""
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        "Physik/Konflikte.md": "# Konflikte\n\nWas gewinnen oder verlieren die Parteien, wenn der Streit beigelegt "
                               "wird, und was bleibt danach offen?\n",
        "Küche/Ohne Waage.md": "# Ohne Waage\n\nWenn Messbecher oder Küchenwaage dann aber doch fehlen, helfen im "
                               "Notfall auch Tassen und Löffel.\n",
        "Physik/Photozelle.md": "# Photozelle\n\nOb ein Strom fließt, hängt davon ab, ob die Photonenenergie größer "
                                "als die Ablöseenergie des Metalls ist.\n",
        "Physik/Photoeffekt.md": "# Photoeffekt\n\nEin Elektron verlässt das Metall nur, wenn die Energie des Photons "
                                 "die Ablöseenergie übersteigt; die Photonenenergie wächst mit der Frequenz.\n",
    })
    ws = Workspace.open(vault)
    assert latin_language("Wenn Messbecher oder Küchenwaage dann aber doch fehlen") == "de"
    assert latin_language("The scaler kept adding machines while the earlier ones were starting.") == "en"
    assert zipf("oder", "de") >= EVERYDAY_ZIPF > zipf("oder")
    assert pair_candidate(ws, "Physik/Konflikte.md", "Küche/Ohne Waage.md") is None
    assert pair_candidate(ws, "Physik/Photozelle.md", "Physik/Photoeffekt.md") is not None


def test_two_passages_that_share_only_two_words_are_no_missing_link(tmp_path):
    """A Rails note and a Scrapy note share "pipeline" and "stage", each in its own sense: two words in common are
    as often two senses as one subject. Two accounts of one thing say several of its words: two Scrapy notes on item
    pipelines share "pipeline", "scraped" and "item"."""
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        "Rails/Assets.md": "# Assets\n\nThe asset pipeline minifies each stylesheet in a separate stage before the "
                           "fingerprint is appended to its name.\n",
        "Scraping/Items.md": "# Items\n\nEvery scraped item passes through the pipeline, one stage per class, before "
                             "it is stored in the database.\n",
        "Scraping/Storage.md": "# Storage\n\nA scraped page becomes an item, and the last stage of the pipeline "
                               "writes it to a table of its own.\n",
    })
    ws = Workspace.open(vault)
    assert pair_candidate(ws, "Rails/Assets.md", "Scraping/Items.md") is None
    found = pair_candidate(ws, "Scraping/Items.md", "Scraping/Storage.md")
    assert found is not None and found.kind == "missing-link"


def test_an_answer_that_shares_two_words_with_its_question_speaks_to_another_matter(tmp_path):
    """Why basil leaves blacken after a cold night is not answered by a pesto recipe that pounds basil leaves."""
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        "Garden/Basil Diary.md": "# Basil Diary\n\n## May\nSowed Genovese basil in the cold frame and thinned the "
                                 "seedlings to a hand's width apart.\n\n## July\nWhy do the basil leaves turn black at "
                                 "the edges after a cold night?\n\n## August\nCut the plants back by a third and they "
                                 "branched again within a fortnight.\n",
        "Kitchen/Pesto.md": "# Pesto\n\nI pound the basil leaves with garlic, pine nuts and salt in the mortar, then stir "
                            "in the cheese and the oil last so the sauce stays green.\n"})
    assert pair_candidate(Workspace.open(vault), "Garden/Basil Diary.md", "Kitchen/Pesto.md") is None


DIARY = ("# Tomato Diary\n\n## June\nPlanted the Brandywine seedlings along the south fence, two feet apart, with a "
         "stake each and a handful of bone meal in every hole.\n\n## August\nWhy do tomatoes crack open after a heavy "
         "rain?{told}\n\n## September\nSaved seed from the best Brandywine and fermented it in a jar for three days "
         "before drying it on a plate.\n")
SKINS = ("# Tomato Skins\n\nFor sauce I blanch the tomatoes for thirty seconds and slip the skins off in iced water.\n\n"
         "Tomato skins split when a dry spell ends in heavy rain: the fruit swells with water faster than its skin can "
         "stretch.\n")


@pytest.mark.parametrize("told, kind", [
    ("", "answer"),  # the question stays open in its note: another note may answer it
    ("\n\nThey crack because I let the bed dry out: after weeks of drought the heavy rain comes all at once, so now "
     "I soak the bed every Sunday.", None),  # its own note answers it next: a lead-in, not an open question
])
def test_an_answer_needs_a_question_its_own_note_leaves_open(tmp_path, told, kind):
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        "Garden/Tomato Diary.md": DIARY.format(told=told), "Kitchen/Tomato Skins.md": SKINS})
    found = pair_candidate(Workspace.open(vault), "Garden/Tomato Diary.md", "Kitchen/Tomato Skins.md")
    assert (found and found.kind) == kind, found


def test_the_score_says_why_a_pair_falls_short():
    weak = Evidence(specific=0.5, salience=0.2, context=0.0, topic=0.0, phrase=0.0, joined=1.0, apart=0.0,
                    question=0.0, coherence=0.4)
    strong = Evidence(specific=1.0, salience=1.0, context=0.8, topic=0.9, phrase=1.0, joined=0.0, apart=0.9,
                      question=0.0, coherence=0.9)
    assert score(weak) < floor(weak) <= floor(strong) <= score(strong)
    # the two signals that count most against it, each read on the side it falls
    assert re.search(r"about unrelated things|not much about|differ in meaning|already joins", explain(weak))


def test_two_passages_that_share_only_everyday_words_score_below_two_that_share_a_term_of_art():
    """Everyday words ("remote server", 可能, 材料) join passages in every vault and seldom by one subject; a term of
    art is rare in speech however often one vault uses it. Read in each word's own language."""
    assert everyday(["remote", "server"]) > 4.0 > 3.0 > everyday(["server", "idempotency"])
    assert everyday(["可能", "材料"]) > 4.5 > everyday(["处理能力", "速度"])
    assert everyday(["состояние", "возможность"]) > 4.5  # "state", "possibility": Russian, read as Russian
    values = dict(specific=1.0, salience=0.8, context=0.4, topic=0.5, phrase=0.0, joined=0.0, apart=0.1,
                  question=0.0, coherence=0.6)
    plain, art = Evidence(**values, everyday=5.2), Evidence(**values, everyday=2.0)
    assert score(art) > score(plain)
    assert "everyday word" in explain(plain)


def test_a_reason_against_a_pair_says_which_side_of_a_signal_counted():
    """The fitted weight of a signal may be below zero (rare shared words, a note joining both): the reason then
    reads the value as it is, never as its opposite ("the shared words are common" of words found in two notes)."""
    from walker.walk.scorer import _READ, MODELS

    model = MODELS["plain"]
    negative = [name for name, weight in model["weight"].items() if weight < 0]
    assert negative, "no signal has a weight below zero: nothing to check"
    values = {name: model["mean"][name] for name in model["mean"]}
    values["specific"] = math.expm1(values["specific"])  # the model reads it on a log scale
    for name in negative:  # high on this one signal, average on the rest: it alone counts against the pair
        high = dict(values, **{name: model["mean"][name] + 2 * model["scale"][name]})
        if name == "specific":
            high[name] = math.expm1(high[name])
        reason = explain(Evidence(**high))
        assert "common in the vault" not in reason and "no note links both" not in reason, (name, reason)
        assert _READ["zh"][name][1] in explain(Evidence(**high), "zh")  # read in Chinese on the same side


DAY_LOG = ("# {title}\n\n## Morning\n{morning}\n\n## Evening\nWent running by the river for forty minutes and read "
           "two chapters of the novel before bed.\n")
MORNINGS = ("Reviewed the lecture notes on linear regression and worked the exercises on gradient descent, then rewrote "
            "the summary of the cost function in my own words.",
            "Went over the linear regression lecture again, redid the gradient descent exercises and rewrote my summary "
            "of the cost function.")


@pytest.mark.parametrize("first, second", [
    ("2026-03-07", "2026-03-08"), ("2026.3.7", "2026.3.8"), ("260307", "260308"), ("2026年3月7日", "2026年3月8日"),
    ("2026-03-07 Sat", "2026-03-08 Sun"),
])
def test_two_days_written_alike_are_two_days_not_two_notes_to_merge(tmp_path, first, second):
    """A day's note records a day: two days that went alike are not one subject written twice, whatever the date's
    format in their titles."""
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        f"Journal/{title}.md": DAY_LOG.format(title=title, morning=morning) for title, morning in zip((first, second), MORNINGS)})
    found = pair_candidate(Workspace.open(vault), f"Journal/{first}.md", f"Journal/{second}.md")
    assert found is None or found.kind != "duplicate", found.claim


def test_a_title_of_five_thousand_digits_is_read_as_a_number_not_a_crash():
    """Python refuses to turn a run of more than 4,300 digits into an int; a hostile title must not end the walk."""
    assert not one_name("Plan " + "9" * 5000, "Plan") and one_name("Plan " + "9" * 5000, "Plan " + "9" * 5000)


@pytest.mark.parametrize("first, second, duplicate", [
    ("Regression", "Regression lecture", True),  # one thing, one name: the control
    ("Study plan week 3", "Study plan week 6", False), ("Regression notes", "Regression notes (二)", False),
    ("第三章 回归", "第四章 回归", False), ("Regression lecture", "Gradient exercises", False),
])
def test_two_notes_written_alike_are_one_note_to_merge_only_when_their_titles_name_one_thing(tmp_path, first, second,
                                                                                           duplicate):
    """Two weeks of one plan, two parts of one article, two chapters of one course share their words, not their
    names: a number in a title marks one part of a series, and two titles that name two things name two notes."""
    vault = write_vault(copy_vault_files(SAMPLE_VAULT, tmp_path / "vault"), {
        f"Study/{title}.md": DAY_LOG.format(title=title, morning=morning) for title, morning in zip((first, second), MORNINGS)})
    found = pair_candidate(Workspace.open(vault), f"Study/{first}.md", f"Study/{second}.md")
    assert (found is not None and found.kind == "duplicate") == duplicate, found and found.claim


@pytest.mark.parametrize("title, day", [
    ("2026-03-07", date(2026, 3, 7)), ("2026.3.7", date(2026, 3, 7)), ("2026_03_07", date(2026, 3, 7)),
    ("20260307", date(2026, 3, 7)), ("260307", date(2026, 3, 7)), ("2026年3月7日", date(2026, 3, 7)),
    ("2026-03-07 Sat", date(2026, 3, 7)), ("2026-03-07 (周六)", date(2026, 3, 7)), ("2026年3月7日 星期六", date(2026, 3, 7)),
    ("2026", None), ("2026-03", None), ("2026-13-07", None), ("2026-02-30", None), ("2026307", None), ("123456", None),
    ("2026-03-07 Saturday", date(2026, 3, 7)), ("2026-03-07（土）", date(2026, 3, 7)),
    ("1984 Orwell", None), ("Meeting 2026-03-07", None), ("2026-03-07 meeting with the landlord about rent", None),
    ("2025-11-18 CAPE", None), ("20241217_Loops", None), ("20210215ログ", None), ("20211029自公選挙演説", None),
])
def test_a_daily_note_is_known_by_its_date_in_any_common_form(title, day):
    assert daily_date(title) == day
