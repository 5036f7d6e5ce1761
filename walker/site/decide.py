"""How a record's page asks for a decision: the decision bar right under the claim (each choice as one
command to copy, and the next record in the queue) and the decide box lower down (what each choice does,
archive, and the properties that do the same in Obsidian).

Both are the same on every page but for the record's id, its Obsidian link, a decision already made and
its place in the queue, so the site renders their Markdown once per shape and fills each page's values
into that HTML (rendering them on every page was half the cost of a 2,000-record site). The values are
escaped for the HTML they land in, and the id and folder are quoted for the shell first.

A command's example text comes from ``PLACEHOLDERS``, which the commands refuse: a command copied and
run unedited records nothing.
"""

from __future__ import annotations

import html
import re
import secrets
import shlex
from dataclasses import dataclass

from walker.pool.lifecycle import PLACEHOLDERS

_FILL = re.compile(r"WALKERFILL(ID|WHERE|URL|DECIDED|NEXTTITLE|NEXT|PLACE|QUEUE)")
# Where a page's bar and box go until they are filled in. A note cannot plant them: it never sees this
# process's nonce.
_NONCE = secrets.token_hex(8)
BAR = f"walker-decision-bar-{_NONCE}"
PLACEHOLDER = f"walker-decide-box-{_NONCE}"


@dataclass(frozen=True)
class Choice:
    label: str  # what the bar calls it
    action: str  # the walker command
    options: tuple[str, ...]  # the options it needs, each shown with its example text (PLACEHOLDERS)
    does: str  # what it does, for the box


CONFIRM = Choice("Confirm", "discharge", ("--source", "--statement"),
                 "it holds. A new note is written to your inbox, in your words, and the hypothesis is "
                 "retired as confirmed.")
REJECT = Choice("Reject", "reject", ("--evidence",),
                "it is wrong. The hypothesis is retired as rejected, and walks will not propose it again.")
MUTE = Choice("Mute", "mute", (), "not now. It stays here but never comes up on its own.")
UNMUTE = Choice("Unmute", "unmute", (), "it may come up on its own again.")
ARCHIVE = Choice("Archive", "archive", (), "retire it without a verdict.")
OBSIDIAN = "[open the record in Obsidian](WALKERFILLURL)"
DECIDED = "You decided **WALKERFILLDECIDED** in Obsidian; `walker review` applies it."


@dataclass(frozen=True)
class DecideBox:
    folder: str  # "active" or "noteworthy": which choices there are
    record_id: str
    vault: str  # the vault folder the commands name
    record_url: str  # opens the record in Obsidian
    decided: str  # what the reviewer set in Obsidian and `walker review` has not applied yet
    muted: bool = False  # a muted hypothesis is unmuted, not muted again
    next_page: str = ""  # the next record in the queue that needs a decision, relative to this page
    next_title: str = ""
    place: str = ""  # this record's place in the queue ("2 of 7"), "" when it is not in it
    queue_page: str = "../review.html"  # the queue, relative to this page

    @property
    def shape(self) -> tuple[str, bool, bool, str]:
        return self.folder, self.muted, bool(self.decided), _queued(self)

    def bar_markdown(self) -> str:
        """The bar as Markdown, with WALKERFILL… where this record's values go (see ``fill``)."""
        return "\n".join(_choices(self.folder, bool(self.decided), self.muted, _queued(self)))

    def markdown(self) -> str:
        """The box as Markdown, with WALKERFILL… where this record's values go (see ``fill``)."""
        return "\n".join(_box(self.folder, self.muted))

    def fill(self, rendered: str) -> str:
        """The bar's or the box's rendered HTML with this record's values in place, escaped."""
        values = {"ID": shlex.quote(self.record_id), "WHERE": shlex.quote(self.vault), "URL": self.record_url,
                  "DECIDED": self.decided or "none", "NEXT": self.next_page, "NEXTTITLE": self.next_title,
                  "PLACE": self.place, "QUEUE": self.queue_page}
        return _FILL.sub(lambda m: html.escape(values[m.group(1)]), rendered)


def _queued(box: DecideBox) -> str:
    return "next" if box.next_page else "last" if box.place else ""


def command(choice: Choice) -> str:
    """The command for ``choice``, on one line, each option with its example text."""
    options = [f'{o} "{PLACEHOLDERS[o]}"' for o in choice.options]
    return " ".join([f"walker {choice.action} WALKERFILLID WALKERFILLWHERE", *options])


def _choices(folder: str, decided: bool, muted: bool = False, queued: str = "") -> list[str]:
    """The decision bar: where the queue goes on, then each choice and its command."""
    queue = {"next": 'WALKERFILLPLACE · [Next in queue →](WALKERFILLNEXT "WALKERFILLNEXTTITLE")',
             "last": "WALKERFILLPLACE · [Back to the queue](WALKERFILLQUEUE)",
             "": "[Needs a decision →](WALKERFILLQUEUE)"}[queued]
    lines = [queue, "{: .walker-queue-on }", ""]
    if folder == "noteworthy":
        lines += [*([DECIDED, ""] if decided else []), *_choice(ARCHIVE),
                  f"**Rewrite** or **leave**: {OBSIDIAN} and set `human_review_outcome`.", "",
                  "[What each does](#decide)", "{: .walker-hint }"]
    else:
        lines += [*([DECIDED, ""] if decided else []),
                  *(line for choice in (CONFIRM, REJECT, UNMUTE if muted else MUTE) for line in _choice(choice)),
                  "Put your own words in the quotes first: walker refuses the example text. "
                  "[What each does](#decide)", "{: .walker-hint }"]
    return ['!!! walker-decision "Decide"', "", *_indented(lines), ""]


def _choice(choice: Choice) -> list[str]:
    return [f"**{choice.label}**", "{: .walker-choice }", "", _command_block(command(choice)), ""]


def _box(folder: str, muted: bool) -> list[str]:
    """The decide box: what each choice of the bar does, and how to decide in Obsidian instead."""
    if folder == "noteworthy":
        return [f"In Obsidian, {OBSIDIAN} and set the property **human_review_outcome** to one of:", "",
                "- `rewrite`: walk again from this claim; if the new walk keeps something, this entry is archived;",
                "- `archive`: retire it without a verdict (the command in the bar does it now);",
                "- `leave`: keep it here as it is.", "",
                "`walker review` (run by the weekly timer) applies it.", ""]
    return ["What each choice in the bar under the claim does:", "",
            *(f"- **{c.label}**: {c.does}" for c in (CONFIRM, REJECT, UNMUTE if muted else MUTE)),
            f"- **{ARCHIVE.label}**: {ARCHIVE.does} In a terminal:", "",
            *_indented([_command_block(command(ARCHIVE))]), "",
            f"**Or decide in Obsidian**: {OBSIDIAN} and set its properties, then `walker review` (run by the "
            "weekly timer) applies them.", "",
            "| to | set |", "|---|---|",
            "| confirm | `review: confirm`, `review_source: …` (what shows it holds), `review_statement: …` (the fact) |",
            "| reject | `review: reject`, `review_evidence: …` (what shows it is wrong) |", ""]


def _indented(lines: list[str]) -> list[str]:
    """Lines (each may hold several) inside a block: an admonition or a list item."""
    return [f"    {part}" if part else "" for line in lines for part in line.split("\n")]


def _command_block(command: str) -> str:
    return f"``` sh\n{command}\n```"
