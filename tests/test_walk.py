"""A whole walk pass on real vaults: records, report, run record, log, and the invariants."""

import hashlib
import html
import json
import re
from datetime import datetime, timezone

import pytest
import yaml
from click.testing import CliRunner
from conftest import SAMPLE_VAULT, cli, copy_vault_files, real_vault, write_vault

from walker.cli import main
from walker.corpus import Resolver, load_corpus
from walker.pool.records import REQUIRED, validate
from walker.pool.store import PoolStore
from walker.walk.runner import WalkOptions, run_walk
from walker.workspace import Workspace

NOW = datetime(2026, 11, 30, 7, 0, tzinfo=timezone.utc)


def walk(vault, **options):
    return run_walk(Workspace.open(vault), WalkOptions(now=options.pop("now", NOW), **options))


def digest_outside_walks(vault):
    return {p.relative_to(vault).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(vault.rglob("*")) if p.is_file() and "walks" not in p.relative_to(vault).parts}


@pytest.fixture
def sample(tmp_path):
    return copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")


def test_walk_on_the_sample_vault(sample):
    before = digest_outside_walks(sample)
    first = walk(sample, random_seed=1, seed_note="Autoscaler Oscillation")
    second = walk(sample, random_seed=2)
    assert digest_outside_walks(sample) == before  # read-only: nothing outside walks/ changed

    assert (first.outcome.walk_id, second.outcome.walk_id) == ("2026-11-30-001", "2026-11-30-002")
    store = PoolStore(sample)
    active = store.records("active")
    assert active, "a walk on the sample vault keeps at least one hypothesis"
    for record in active:
        assert validate(record.data) == []
        assert all(record.data.get(key) not in (None, "", []) for key in REQUIRED)
        assert record.data["status"] == "active" and record.data["confidence"] in ("low", "medium")
        assert record.data["impact_reason"]
        assert len({r.partition("#")[0] for r in record.data["supporting_refs"]}) >= 2
    ids = [r.id for r in store.records()]
    assert len(ids) == len(set(ids))
    assert (sample / "walks" / "noteworthy").is_dir()

    run = yaml.safe_load((sample / "walks" / "runs" / "2026-11-30-001.yaml").read_text())
    assert set(run["phases"]) == {"inventory", "roam", "critique"}
    assert run["phases"]["inventory"] and run["phases"]["roam"]
    assert len(run["phases"]["critique"]) == len(run["phases"]["roam"])
    assert all("rules" in v["gate"] for v in run["phases"]["critique"])
    automatic = yaml.safe_load((sample / "walks" / "runs" / "2026-11-30-002.yaml").read_text())["seed"]
    assert run["seed"]["source"] == "given" and automatic["source"] in ("recent", "revisited", "open-question", "forgotten")
    assert run["seed"]["path"] != automatic["path"]

    log = (sample / "walks" / "log.md").read_text()
    assert log.count("walk-start") == 2 and "walk-emit: [[hyp-2026-11-30-001]]" in log


def test_every_link_in_reports_and_records_resolves(sample):
    walk(sample, random_seed=1)
    corpus = load_corpus(sample)
    resolver = Resolver(f.path for f in corpus.files)
    link = re.compile(r"!?\[\[([^\]|#]*)(#[^\]|]*)?(?:\|[^\]]*)?]]")
    pages = list((sample / "walks" / "reports").glob("*.md")) + list((sample / "walks" / "active").glob("*.md"))
    assert pages
    checked = 0
    for page in pages:
        source = page.relative_to(sample).as_posix()
        for target, subpath in link.findall(page.read_text()):
            resolved = resolver.resolve(target, source).path
            assert resolved, f"{source}: [[{target}]] does not resolve"
            if subpath and resolved in corpus.notes:
                from walker.corpus import find_subpath
                assert find_subpath(corpus.notes[resolved], subpath), f"{source}: [[{target}{subpath}]]"
            checked += 1
    assert checked > 10


def test_report_reads_as_the_protocol_asks(sample):
    result = walk(sample, random_seed=1, seed_note="Autoscaler Oscillation")
    report = result.report
    for heading in ("## Seed", "## Inventory", "## Candidate associations", "## Critic rejections", "## Notes for review"):
        assert heading in report
    assert f"![[{result.outcome.walk_id}.svg|The walk from " in report  # the picture, with words for who cannot see it
    front = yaml.safe_load(report.split("---")[1])
    assert set(front) >= {"title", "seed", "hypotheses"}
    picture = (sample / "walks" / "reports" / f"{result.outcome.walk_id}.svg").read_text()
    assert picture.startswith("<svg") and picture.count("<line") >= len(result.outcome.hypothesis_ids)
    assert "<desc>" in picture and picture.count('class="numeral"') == len(result.outcome.hypothesis_ids)
    hood = result.outcome.neighbourhood
    named = re.findall(r'<g class="node" data-note="([^"]+)">', picture)  # each dot and label names its note
    assert sorted(named) == sorted([hood.seed.path, *(i.path for i in hood.items)])
    assert "[[hyp-2026-11-30-001" in report


def test_determinism(tmp_path):
    outputs = []
    for name in ("a", "b"):
        vault = copy_vault_files(SAMPLE_VAULT, tmp_path / name)
        walk(vault, random_seed=5)
        outputs.append({p.relative_to(vault / "walks").as_posix(): p.read_bytes()
                        for p in sorted((vault / "walks").rglob("*")) if p.is_file() and p.name != ".lock"})
    assert outputs[0] == outputs[1]


def test_dry_run_writes_nothing(sample):
    result = walk(sample, dry_run=True)
    assert not (sample / "walks").exists()
    assert "## Seed" in result.report and result.written == []


def test_seed_options(sample):
    by_note = walk(sample, seed_note="Backpressure", dry_run=True)
    assert by_note.outcome.seed.path == "Systems/Backpressure.md"
    by_text = walk(sample, seed_text="waiting before acting often beats acting at once", dry_run=True)
    assert by_text.outcome.seed.proposition == "waiting before acting often beats acting at once"
    assert by_text.outcome.seed.source == "given-text"


@pytest.mark.parametrize("seed", ["Garden/Truffles.md", "Garden/Truffles", "[[Truffles]]"])
def test_a_seed_that_names_a_note_starts_from_that_note(sample, seed):
    """`--seed Garden/Truffles.md` means the note, not a proposition about a path (it was once read as words and
    refused as a sensitive inference)."""
    write_vault(sample, {"Garden/Truffles.md": "# Truffles\n\nTruffles fruit underground beside oak roots, "
                                                "and a dog finds them by smell in late autumn.\n"})
    result = CliRunner().invoke(main, ["walk", str(sample), "--seed", seed, "--dry-run", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["seed"]["path"] == "Garden/Truffles.md"


def test_a_seed_written_as_a_path_to_no_note_says_which_notes_it_may_mean(sample):
    result = CliRunner().invoke(main, ["walk", str(sample), "--seed", "Garden/Compst.md", "--dry-run"])
    assert result.exit_code == 2 and "no note called 'Garden/Compst.md'" in result.output
    assert "Compost" in result.output and len(result.output.strip().splitlines()) == 1


def test_what_a_note_says_of_a_person_is_neither_seed_nor_quote(sample):
    """A note's sentences about someone's health, faith or origin are not walked: no seed, no quote, no record."""
    write_vault(sample, {"People/Marco.md": (
        "# Marco\n\nMarco skips lunch and is anxious since the bakery fed its starter faster than it can ferment. "
        "His family came from Sicily and he goes to church every Sunday.\n")})
    result = walk(sample, seed_note="Marco")
    assert not re.search(r"anxious|church|Sicily", result.outcome.seed.proposition)
    assert not any(re.search(r"anxious|church|Sicily", c.claim) for c in result.outcome.candidates)
    for record in PoolStore(sample).records():
        assert not re.search(r"anxious|church|Sicily", yaml.safe_dump(record.data)), record.path


def test_a_seed_that_infers_a_sensitive_attribute_is_refused(sample):
    runner = CliRunner()
    result = runner.invoke(main, ["walk", str(sample), "--seed", "The user is anxious and probably depressed about work"])
    assert result.exit_code == 2
    assert "psychological attribute" in result.output and "Traceback" not in result.output
    assert not (sample / "walks" / "active").exists() or not any((sample / "walks" / "active").iterdir())


@pytest.mark.parametrize(("seed", "said"), [
    ("Which should we ship tomorrow, the cache or the queue?", "a choice to make"),
    ("明天上线选哪个方案？", "a choice to make"),
    ("What else might cause this KeyError in compost.py:12?", "a task"),
    ("Fix the bug in rotate.py:42", "a task"),
])
def test_a_seed_that_asks_to_decide_or_to_do_is_refused_with_one_line(sample, seed, said):
    result = CliRunner().invoke(main, ["walk", str(sample), "--seed", seed])
    assert result.exit_code == 2 and said in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (sample / "walks" / "active").exists() or not any((sample / "walks" / "active").iterdir())


def test_a_seed_longer_than_an_idea_is_refused_in_bounded_time(sample):
    """A seed is read whole by the sensitive guard: a pasted chapter (here 120,000 characters, near the longest
    argument a shell passes) took seconds. It is refused at once, with one line that says what a seed is."""
    import time

    seed = "The compost bed was mulched with straw and left to rest over the winter months. " * 1500
    started = time.perf_counter()
    result = CliRunner().invoke(main, ["walk", str(sample), "--seed", seed, "--dry-run"])
    assert time.perf_counter() - started < 5.0
    assert result.exit_code == 2 and "characters" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("seed", ["Compost heaps go sour without air",
                                  "What if sourdough starters and compost heaps fail the same way?"])
def test_a_statement_or_a_wondering_seeds_a_walk(sample, seed):
    assert CliRunner().invoke(main, ["walk", str(sample), "--seed", seed, "--dry-run"]).exit_code == 0


def test_rejects_candidates_without_refs_and_with_absent_facts(tmp_path, sample_vault):
    candidates = tmp_path / "candidates.yaml"
    candidates.write_text(yaml.safe_dump([
        {"id": "no-refs", "claim": "Starters and queues both fail when fed faster than they can work through it.",
         "applies_when": ["Talking about feeding a sourdough starter on a schedule."],
         "disconfirm_if": ["A starter that doubles within four hours even when fed every two hours."], "impact": "add",
         "impact_reason": "these two notes are not linked yet; a link would put the two passages side by side", "confidence": "low"},
        {"id": "invented", "supporting_refs": ["Kitchen/Sourdough Starter.md#^feeding-schedule",
                                               "Systems/Backpressure.md#^never-faster"],
         "claim": "As Netflix showed in 2016, a starter fed faster than it can ferment is like an unbounded queue.",
         "applies_when": ["Talking about feeding a sourdough starter on a schedule."],
         "disconfirm_if": ["A starter that doubles within four hours even when fed every two hours."], "impact": "add",
         "impact_reason": "these two notes are not linked yet; a link would put the two passages side by side", "confidence": "low",
         "grounding": {"rare_terms": ["faster"]}},
    ]))
    result = CliRunner().invoke(main, ["critique", str(candidates), str(sample_vault), "--json"])
    assert result.exit_code == 0, result.output
    verdicts = {v["id"]: v for v in json.loads(result.output)["verdicts"]}
    assert not verdicts["no-refs"]["accepted"] and "no-refs" in verdicts["no-refs"]["rules"]
    assert not verdicts["invented"]["accepted"] and verdicts["invented"]["rules"] == ["facts-absent-from-refs"]
    assert set(verdicts["invented"]) >= {"id", "accepted", "noteworthy", "rules"}


def test_critique_bad_file(tmp_path, sample_vault):
    bad = tmp_path / "bad.yaml"
    bad.write_text("just: a mapping\n")
    result = CliRunner().invoke(main, ["critique", str(bad), str(sample_vault)])
    assert result.exit_code == 2 and "list of candidate records" in result.output


def test_init_is_idempotent_and_never_overwrites(tmp_path):
    vault = write_vault(tmp_path, {"A.md": "x"})
    assert CliRunner().invoke(main, ["init", str(vault)]).exit_code == 0
    for folder in ("active", "discharged", "rejected", "archived", "noteworthy", "reports", "runs"):
        assert (vault / "walks" / folder).is_dir()
    assert "# walks" in (vault / "walks" / "README.md").read_text()
    (vault / "walker.toml").write_text("# mine\n")
    second = CliRunner().invoke(main, ["init", str(vault)])
    assert second.exit_code == 0 and "nothing changed" in second.output
    assert (vault / "walker.toml").read_text() == "# mine\n"


def test_walk_cli_and_pool_commands(sample):
    result = CliRunner().invoke(main, ["walk", str(sample), "--now", "2026-11-30T07:00", "--seed-note",
                                       "Autoscaler Oscillation", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["walk_id"] == "2026-11-30-001" and summary["hypotheses"]
    listed = json.loads(CliRunner().invoke(main, ["pool", "list", str(sample), "--json"]).output)["records"]
    assert [r["id"] for r in listed if r["status"] == "active"] == summary["hypotheses"]
    shown = json.loads(CliRunner().invoke(main, ["pool", "show", summary["hypotheses"][0], str(sample), "--json"]).output)
    assert shown["id"] == summary["hypotheses"][0] and shown["supporting_refs"]
    missing = CliRunner().invoke(main, ["pool", "show", "hyp-1999-01-01-001", str(sample)])
    assert missing.exit_code == 2 and "walker pool list" in missing.output


def test_walk_on_tasks_docs(tmp_path):
    source = real_vault("obsidian-tasks-docs")
    vault = copy_vault_files(source, tmp_path / "docs")
    result = walk(vault, random_seed=3)
    assert "## Candidate associations" in result.report
    assert (vault / "walks" / "reports" / f"{result.outcome.walk_id}.md").is_file()


def test_bad_walk_options_are_clear_errors(sample):
    runner = CliRunner()
    bad_now = runner.invoke(main, ["walk", str(sample), "--now", "yesterday"])
    assert bad_now.exit_code == 2 and "ISO date-time" in bad_now.output
    both = runner.invoke(main, ["walk", str(sample), "--seed", "x", "--seed-note", "Salt"])
    assert both.exit_code == 2 and "not both" in both.output
    unknown = runner.invoke(main, ["walk", str(sample), "--seed-note", "No Such Note"])
    assert unknown.exit_code == 2 and "no note called" in unknown.output
    assert not (sample / "walks").exists()


def test_of_two_passages_that_say_the_same_the_daily_note_is_cited(sample):
    """A day's entry is never reorganised, so a ref into it stays good: it wins over a topic note saying the same."""
    write_vault(sample, {"Daily/2026-11-25.md": (
        "# 2026-11-25\n\nBaked again. The levain warmed too early again: it had peaked and fallen by the time the "
        "dough needed it, and the bread came out sour and flat.\n")})
    result = walk(sample, seed_note="Cache Warming", random_seed=3)
    hood = {item.path for item in result.outcome.neighbourhood.items}
    assert {"Kitchen/Levain Build.md", "Daily/2026-11-25.md"} <= hood  # both passages were there to choose from
    from_seed = [c for c in result.outcome.candidates if any(r.startswith("Systems/Cache Warming.md") for r in c.supporting_refs)]
    cited = {ref.partition("#")[0] for c in from_seed for ref in c.supporting_refs}
    assert "Daily/2026-11-25.md" in cited and "Kitchen/Levain Build.md" not in cited


def test_the_walk_picture_labels_do_not_overlap(sample):
    """Every name in the picture is readable: no label box covers another label or a dot (widths estimated
    as the picture estimates them, 0.56 of the font size a character)."""
    for seed in (1, 2, 3):
        result = walk(sample, random_seed=seed, now=NOW.replace(day=seed))
        picture = (sample / "walks" / "reports" / f"{result.outcome.walk_id}.svg").read_text()
        boxes = []
        for x, y, anchor, text in re.findall(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="(start|end)">'
                                             r'<title>[^<]*</title>([^<]*)</text>', picture):
            wide = 0.56 * 19 * len(html.unescape(text))
            left = float(x) if anchor == "start" else float(x) - wide
            boxes.append((left, float(y) - 15, left + wide, float(y) + 5))
        assert len(boxes) == len(result.outcome.neighbourhood.items)
        for i, a in enumerate(boxes):
            assert 0 <= a[0] and a[2] <= 980
            for b in boxes[i + 1:]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def _picture_boxes(picture: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every name and dot in a walk picture, as boxes estimated the way the picture estimates them."""
    boxes = []
    for x, y, anchor, text in re.findall(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="(start|end)">'
                                         r'<title>[^<]*</title>([^<]*)</text>', picture):
        wide = 0.56 * 19 * len(html.unescape(text))
        left = float(x) if anchor == "start" else float(x) - wide
        boxes.append((text, (left, float(y) - 15, left + wide, float(y) + 5)))
    for x, y, text in re.findall(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="middle" class="seed">([^<]*)</text>',
                                 picture):
        wide = 0.56 * 22 * len(html.unescape(text))
        boxes.append((text, (float(x) - wide / 2, float(y) - 17.6, float(x) + wide / 2, float(y) + 5.5)))
    for x, y, r in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="(6|13)"', picture):
        boxes.append(("a dot", (float(x) - int(r), float(y) - int(r), float(x) + int(r), float(y) + int(r))))
    return boxes


def test_a_kept_lines_number_covers_no_name_or_dot(sample):
    """A line from the seed to a near note runs under the seed's name: its number goes beside it, not on it."""
    numbers = 0
    for day, seed_text in enumerate(("Autoscaler Oscillation", "Companion Planting", "Brining"), start=1):
        result = walk(sample, seed_text=seed_text, now=NOW.replace(day=day))
        picture = (sample / "walks" / "reports" / f"{result.outcome.walk_id}.svg").read_text()
        boxes = _picture_boxes(picture)
        for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="14" class="number"/>', picture):
            numbers += 1
            c = (float(x) - 14, float(y) - 14, float(x) + 14, float(y) + 14)
            covered = [name for name, b in boxes if c[0] < b[2] and b[0] < c[2] and c[1] < b[3] and b[1] < c[3]]
            assert not covered, (seed_text, covered)
    assert numbers >= 3


def test_a_walk_that_proposes_nothing_says_so(tmp_path):
    def word(i, k):  # the k-th word of note i, its first two letters its own: no two notes share one
        n = i * 9 + k
        return chr(97 + n // 26) + chr(97 + n % 26) + "".join(chr(97 + (n * 7 + j * 3) % 26) for j in range(3 + k % 3))

    vault = write_vault(tmp_path / "vault", {  # 24 notes that share no word: nothing for the roam to join
        f"Note {i}.md": f"# Note {i}\n\nThe {' '.join(word(i, k) for k in range(9))} stays.\n" for i in range(24)})
    result = walk(vault, seed_note="Note 3", dry_run=True)
    assert not result.outcome.candidates
    assert "the roam proposed nothing" in result.report and "every candidate held up" not in result.report
    assert "proposed 0 bridges; the critic kept 0" in result.report


def test_a_note_bridged_by_a_hypothesis_awaiting_review_seeds_no_walk(sample, monkeypatch):
    """A walk from the other end of last walk's bridge would mostly find that bridge again."""
    from walker import seeds
    from walker.walk import runner

    first = walk(sample, seed_note="Systems/Autoscaler Oscillation")
    bridged = {ref.split("#")[0] for i in first.outcome.hypothesis_ids for ref in first.outcome.candidates[i].supporting_refs}
    assert {"Systems/Autoscaler Oscillation.md", "Kitchen/Proofing Box Thermostat.md"} <= bridged
    avoided = []
    monkeypatch.setattr(runner, "choose_seed", lambda candidates, number, used, rng: avoided.append(used) or
                        seeds.choose_seed(candidates, number, used, rng))
    second = walk(sample, random_seed=2)
    assert bridged <= set(avoided[0]) and second.outcome.seed.path not in bridged


def test_every_quoted_passage_is_text_its_ref_opens(sample_vault, monkeypatch):
    """A quote is sentences in a row of the paragraph its ref opens: a sentence that cannot be quoted (a lead-in such
    as "The rule that works: …") between two that can ends the quote, it is never skipped over."""
    from walker.walk import critic
    from walker.words import normal

    seen = []
    judge = critic.judge

    def spy(candidate, context):
        seen.extend((end.passage, context.ref_text(end.ref)) for end in candidate.bridge if end.passage)
        return judge(candidate, context)

    monkeypatch.setattr(critic, "judge", spy)
    for note in ("Compost", "Worm Bin", "Backpressure", "Sourdough Starter"):
        assert cli("walk", sample_vault, "--dry-run", "--seed-note", note).exit_code == 0
    assert seen
    assert all(normal(passage) in normal(opened or "") for passage, opened in seen), \
        [p for p, o in seen if normal(p) not in normal(o or "")]


def test_the_commands_of_a_formula_are_not_words_two_passages_share(tmp_path):
    """Obsidian renders $…$ as math: "\\underline" and "\\frac" are its markup, never a thread between two notes."""
    from walker.walk.sense import shared_words
    from walker.words import tokens, words

    first = r"La solución óptima es $\underline{x} = \frac{b}{a}$ cuando la restricción está activa."
    second = r"El flujo máximo vale $\frac{c}{2}$ y el corte mínimo se marca con $\underline{S}$ en la figura."
    assert "underline" not in words(first) and "frac" not in words(second)
    assert "nderline" not in tokens(first)  # nor a command read from its second letter
    vault = write_vault(tmp_path / "vault", {"Optima.md": f"# Optima\n\n{first}\n", "Flujo.md": f"# Flujo\n\n{second}\n"})
    ws = Workspace.open(vault)
    assert not {"underline", "frac"} & set(shared_words(first, second, ws.index))
    assert words(r"C:\Users\ana\notes and plain words") == ["and", "plain", "words"]  # nor the parts of a path


@pytest.mark.parametrize("forms", [("notified", "notifies", "notify"), ("applied", "applies", "apply"),
                                   ("studied", "studies", "study"), ("copied", "copies", "copy")])
def test_the_past_of_a_verb_in_y_is_one_word_with_its_other_forms(forms):
    """"Observers are notified" and "the subject notifies them" share a word: one passage's past tense and the other's
    present are one thread, as "stored" and "stores" already were."""
    from walker.words import stem

    assert len({stem(form) for form in forms}) == 1
