"""`walker scan`, `walker links`, `walker graph export`: the output shapes are contracts."""

import json

import networkx as nx
from click.testing import CliRunner
from conftest import write_vault

from walker.cli import main


def run(*args, env=None):
    result = CliRunner().invoke(main, list(args), env=env)
    return result


def vault(tmp_path):
    return write_vault(tmp_path / "v", {
        "Garden/Soil.md": "---\ntags: [garden]\nup: \"[[Index]]\"\n---\n# Soil\nCompost feeds [[Worms#Castings|worms]].\n",
        "Garden/Worms.md": "# Worms\n## Castings\nRich. ![[worm.png]] [[Nowhere]]\n",
        "Garden/worm.png": b"\x89PNG",
        "Index.md": "[Soil](Garden/Soil.md) #index\n",
        "Lonely.md": "nobody links here\n",
    })


def test_links_json_contract(tmp_path):
    result = run("links", str(vault(tmp_path)), "--json")
    assert result.exit_code == 0, result.output
    links = json.loads(result.output)["links"]
    assert links[0] == {"source": "Garden/Soil.md", "line": 3, "kind": "frontmatter", "target": "Index",
                        "subpath": None, "resolved": "Index.md"}
    assert {(l["kind"], l["target"], l["subpath"], l["resolved"]) for l in links} == {
        ("frontmatter", "Index", None, "Index.md"),
        ("link", "Worms#Castings", "#Castings", "Garden/Worms.md"),
        ("embed", "worm.png", None, "Garden/worm.png"),
        ("link", "Nowhere", None, None),
        ("markdown", "Garden/Soil.md", None, "Garden/Soil.md"),
    }


def test_scan_json(tmp_path):
    result = run("scan", str(vault(tmp_path)), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["notes"], data["attachments"]) == (4, 1)
    assert data["links"] == {"total": 5, "resolved": 4, "unresolved": 1, "ambiguous": 0}
    assert data["orphans"] == ["Lonely.md"]
    assert data["components"] == 2
    assert data["tags"] == {"garden": 1, "index": 1}
    for key in ("skipped", "warnings", "seconds", "cache_hits", "unresolved", "ambiguous"):
        assert key in data


def test_scan_human_output(tmp_path):
    result = run("scan", str(vault(tmp_path)))
    assert result.exit_code == 0
    assert "4 notes, 1 attachments" in result.output
    assert "[[Nowhere]]" in result.output


def test_vault_defaults_to_env_then_cwd(tmp_path, monkeypatch):
    v = vault(tmp_path)
    assert json.loads(run("scan", "--json", env={"WALKER_VAULT": str(v)}).output)["notes"] == 4
    monkeypatch.chdir(v / "Garden")
    assert json.loads(run("scan", "--json").output)["notes"] == 2


def test_missing_vault_is_a_usage_error(tmp_path):
    result = run("scan", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert "no such folder" in result.output


def test_bad_config_is_a_clear_error(tmp_path):
    v = vault(tmp_path)
    (v / "walker.toml").write_text("exclude = [\n", encoding="utf-8")
    result = run("scan", str(v))
    assert result.exit_code == 2 and "walker.toml" in result.output


def test_graph_export_formats(tmp_path):
    v = vault(tmp_path)
    for fmt, reader in (("graphml", nx.read_graphml), ("gexf", nx.read_gexf)):
        out = tmp_path / f"g.{fmt}"
        assert run("graph", "export", str(v), "--format", fmt, "-o", str(out)).exit_code == 0
        g = reader(out)
        assert g.nodes["Garden/Worms.md"]["type"] == "note"
        assert g.nodes["Garden/worm.png"]["type"] == "attachment"
        assert g.nodes["unresolved:Nowhere"]["type"] == "unresolved"
        assert g.edges["Garden/Soil.md", "Garden/Worms.md"]["subpaths"] == "#Castings"
    out = tmp_path / "g.json"
    assert run("graph", "export", str(v), "-o", str(out)).exit_code == 0
    data = json.loads(out.read_text())
    edge = next(e for e in data["links"] if e["source"] == "Index.md")
    assert (edge["target"], edge["kinds"], edge["count"]) == ("Garden/Soil.md", ["markdown"], 1)


def test_walker_toml_tables_are_checked(tmp_path):
    from walker.config import DEFAULT_CONFIG, ConfigError, load_settings, table
    from walker.walk.runner import WalkSettings
    from walker.wander import WanderSettings

    v = write_vault(tmp_path / "v", {"walker.toml": DEFAULT_CONFIG.replace("# far = 5", "far = 2")
                                     .replace("# hubs = []", 'hubs = ["Home.md"]')})
    settings = load_settings(v)
    assert table(WanderSettings, settings.extra, "wander").far == 2
    assert table(WanderSettings, settings.extra, "wander").hubs == ("Home.md",)
    assert table(WalkSettings, settings.extra, "walk") == WalkSettings()
    import pytest
    assert table(WanderSettings, {"wander": {"fra": 2}}, "wander") == WanderSettings()  # a typo: warned, left out
    with pytest.raises(ConfigError, match="wander.far"):
        table(WanderSettings, {"wander": {"far": "many"}}, "wander")


def test_scan_groups_warnings_by_kind_and_times_the_whole_command(tmp_path):
    notes = {"A.md": "# A\n\n" + " ".join(f"[[B#Missing {n}]]" for n in range(5)) + "\n", "B.md": "# B\n"}
    folder = write_vault(tmp_path / "v", notes)
    shown = run("scan", str(folder)).output
    assert "warnings: 5, of 1 kind" in shown and "5 × links to a heading or block the note does not have" in shown
    assert shown.count("A.md: line") == 3 and "2 more (walker scan --warnings lists them all)" in shown
    assert run("scan", str(folder), "--warnings").output.count("A.md: line") == 5
    data = json.loads(run("scan", str(folder), "--json").output)
    assert data["seconds"] >= data["read_seconds"] > 0 and "in all" in shown
