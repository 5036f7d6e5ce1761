"""The dashboard says when the weekly timer next starts, as the command that builds the site found it; the site
itself asks no service anything."""

from __future__ import annotations

import subprocess

from walker.site.pages import generate_site


def _dashboard(site) -> str:
    return next(page.markdown for page in site.pages if page.path == "index.md")


def test_the_dashboard_shows_the_timer_it_is_given_and_never_asks_systemd(sample_vault, monkeypatch):
    def no_systemctl(*args, **kwargs):
        raise AssertionError(f"the site ran {args[0]!r}")

    monkeypatch.setattr(subprocess, "run", no_systemctl)
    given = generate_site(sample_vault, timer="Sat 2026-12-05 09:00:00 UTC")
    assert "systemd will next start it at Sat 2026-12-05 09:00:00 UTC" in _dashboard(given)
    assert "no timer is installed" in _dashboard(generate_site(sample_vault))
