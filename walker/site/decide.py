"""The decide box of a record's page: each choice with its exact command, and the properties that do
the same in Obsidian.

The box is the same on every page but for the record's id, its Obsidian link and a decision already
made, so the site renders its Markdown once per shape and fills each page's values into that HTML
(rendering it on every page was half the cost of a 2,000-record site). The values are escaped for the
HTML they land in, and the id and folder are quoted for the shell first.
"""

from __future__ import annotations

import html
import re
import secrets
import shlex
from dataclasses import dataclass

from walker.pool.lifecycle import PLACEHOLDERS

_FILL = re.compile(r"WALKERFILL(ID|WHERE|URL|DECIDED)")
# Where a page's box goes until it is filled in. A note cannot plant it: it never sees this process's nonce.
PLACEHOLDER = f"walker-decide-box-{secrets.token_hex(8)}"


@dataclass(frozen=True)
class DecideBox:
    folder: str  # "active" or "noteworthy": which choices there are
    record_id: str
    vault: str  # the vault folder the commands name
    record_url: str  # opens the record in Obsidian
    decided: str  # what the reviewer set in Obsidian and `walker review` has not applied yet

    @property
    def shape(self) -> tuple[str, bool]:
        return self.folder, bool(self.decided)

    def markdown(self) -> str:
        """The box as Markdown, with WALKERFILL… where this record's values go (see ``fill``)."""
        return "\n".join(_choices(self.folder, bool(self.decided)))

    def fill(self, rendered: str) -> str:
        """The box's rendered HTML with this record's values in place, escaped."""
        values = {"ID": shlex.quote(self.record_id), "WHERE": shlex.quote(self.vault), "URL": self.record_url,
                  "DECIDED": self.decided or "none"}
        return _FILL.sub(lambda m: html.escape(values[m.group(1)]), rendered)


def _choices(folder: str, decided: bool) -> list[str]:
    def command(action: str, *options: str) -> str:
        return " \\\n    ".join([f"walker {action} WALKERFILLID WALKERFILLWHERE", *options])

    open_record = "[open the record in Obsidian](WALKERFILLURL)"
    if folder == "noteworthy":
        return [f"Your decision so far: **WALKERFILLDECIDED**. In Obsidian, {open_record} and set "
                "the property **human_review_outcome** to one of:", "",
                "- `rewrite`: walk again from this claim; if the new walk keeps something, this entry is archived;",
                "- `archive`: retire it without a verdict;",
                "- `leave`: keep it here as it is.", "",
                "`walker review` (run by the weekly timer) applies it. To archive it now, in a terminal:", "",
                _command_block(command("archive")), ""]
    return [*(["You decided **WALKERFILLDECIDED** in Obsidian; `walker review` (run by the weekly timer) applies it.", ""]
              if decided else []),
            "**It holds.** A new note is written to your inbox, in your words, and the hypothesis is retired as "
            "confirmed:", "",
            _command_block(command("discharge", *(f'{o} "{PLACEHOLDERS[o]}"' for o in ("--source", "--statement")))), "",
            "**It is wrong.** The hypothesis is retired as rejected, and walks will not propose it again:", "",
            _command_block(command("reject", f'--evidence "{PLACEHOLDERS["--evidence"]}"')), "",
            "**Not now.** Mute keeps it here but never brings it up on its own; archive retires it without a verdict:", "",
            _command_block(command("mute")), "", _command_block(command("archive")), "",
            f"**Or decide in Obsidian**: {open_record} and set its properties, then `walker review` applies them.", "",
            "| to | set |", "|---|---|",
            "| confirm | `review: confirm`, `review_source: …` (what shows it holds), `review_statement: …` (the fact) |",
            "| reject | `review: reject`, `review_evidence: …` (what shows it is wrong) |", ""]


def _command_block(command: str) -> str:
    return f"``` sh\n{command}\n```"
