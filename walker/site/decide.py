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
from typing import Any

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
# The bar's and the box's words in each language a record is written in (the commands stay as they are).
TEXT: dict[str, dict[str, Any]] = {
    "en": {
        "obsidian": "[open the record in Obsidian](WALKERFILLURL)",
        "decided": "You decided **WALKERFILLDECIDED** in Obsidian; `walker review` applies it.",
        "next": 'WALKERFILLPLACE · [Next in queue →](WALKERFILLNEXT "WALKERFILLNEXTTITLE")',
        "last": "WALKERFILLPLACE · [Back to the queue](WALKERFILLQUEUE)", "queue": "[Needs a decision →](WALKERFILLQUEUE)",
        "rewrite or leave": "**Rewrite** or **leave**: {obsidian} and set `human_review_outcome`.",
        "what": "[What each does](#decide)",
        "own words": "Put your own words in the quotes first: walker refuses the example text. ",
        "title": "Decide",
        "noteworthy box": ["In Obsidian, {obsidian} and set the property **human_review_outcome** to one of:", "",
                           "- `rewrite`: walk again from this claim; if the new walk keeps something, this entry is "
                           "archived;",
                           "- `archive`: retire it without a verdict (the command in the bar does it now);",
                           "- `leave`: keep it here as it is.", "",
                           "`walker review` (run by the weekly timer) applies it.", ""],
        "box": "What each choice in the bar under the claim does:", "terminal": " In a terminal:",
        "in obsidian": "**Or decide in Obsidian**: {obsidian} and set its properties, then `walker review` (run by "
                       "the weekly timer) applies them.",
        "table": ["| to | set |", "|---|---|",
                  "| confirm | `review: confirm`, `review_source: …` (what shows it holds), `review_statement: …` "
                  "(the fact) |",
                  "| reject | `review: reject`, `review_evidence: …` (what shows it is wrong) |"],
    },
    "zh": {
        "obsidian": "[在 Obsidian 里打开这条记录](WALKERFILLURL)",
        "decided": "你已在 Obsidian 里选了 **WALKERFILLDECIDED**；`walker review` 会执行它。",
        "next": 'WALKERFILLPLACE · [队列里的下一条 →](WALKERFILLNEXT "WALKERFILLNEXTTITLE")',
        "last": "WALKERFILLPLACE · [回到队列](WALKERFILLQUEUE)", "queue": "[等你决定 →](WALKERFILLQUEUE)",
        "rewrite or leave": "**改写**或**保留**：{obsidian}，设置 `human_review_outcome`。",
        "what": "[每个选择做什么](#decide)",
        "own words": "先把引号里的示例换成你自己的话：walker 不接受示例文字。",
        "title": "决定",
        "noteworthy box": ["在 Obsidian 里{obsidian}，把属性 **human_review_outcome** 设为其中之一：", "",
                           "- `rewrite`：从这个主张重新散步；新的散步保留了东西，这一条就归档；",
                           "- `archive`：不下结论地收起它（决定栏里的命令现在就做）；",
                           "- `leave`：原样留在这里。", "",
                           "`walker review`（每周的定时任务会运行它）执行你的选择。", ""],
        "box": "主张下面决定栏里每个选择做什么：", "terminal": "在终端里：",
        "in obsidian": "**或者在 Obsidian 里决定**：{obsidian}，设置它的属性，然后 `walker review`（每周的定时任务会运行它）"
                       "执行它们。",
        "table": ["| 要 | 设置 |", "|---|---|",
                  "| 确认 | `review: confirm`、`review_source: …`（说明它成立的依据）、`review_statement: …`（事实本身） |",
                  "| 否决 | `review: reject`、`review_evidence: …`（说明它错的证据） |"],
    },
}
# Each choice's name and what it does, in Chinese, by its command.
CHOICES_ZH = {
    "discharge": ("确认", "它成立。一篇新笔记用你的话写进收件箱，这条假设作为已确认收起。"),
    "reject": ("否决", "它是错的。这条假设作为已否决收起，以后的散步不会再提出它。"),
    "mute": ("静音", "现在不管。它留在这里，但不会自己冒出来。"),
    "unmute": ("取消静音", "它又可以自己冒出来了。"),
    "archive": ("归档", "不下结论地收起它。"),
}


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
    language: str = "en"  # the record's: "en" or "zh"

    @property
    def shape(self) -> tuple[str, bool, bool, str, str]:
        return self.folder, self.muted, bool(self.decided), _queued(self), self.language

    def bar_markdown(self) -> str:
        """The bar as Markdown, with WALKERFILL… where this record's values go (see ``fill``)."""
        return "\n".join(_choices(self.folder, bool(self.decided), self.muted, _queued(self), self.language))

    def markdown(self) -> str:
        """The box as Markdown, with WALKERFILL… where this record's values go (see ``fill``)."""
        return "\n".join(_box(self.folder, self.muted, self.language))

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


def _choices(folder: str, decided: bool, muted: bool = False, queued: str = "", language: str = "en") -> list[str]:
    """The decision bar: where the queue goes on, then each choice and its command."""
    text = TEXT[language]
    lines = [text[queued or "queue"], "{: .walker-queue-on }", ""]
    if folder == "noteworthy":
        lines += [*([text["decided"], ""] if decided else []), *_choice(ARCHIVE, language),
                  text["rewrite or leave"].format(obsidian=text["obsidian"]), "", text["what"], "{: .walker-hint }"]
    else:
        lines += [*([text["decided"], ""] if decided else []),
                  *(line for choice in (CONFIRM, REJECT, UNMUTE if muted else MUTE) for line in _choice(choice, language)),
                  text["own words"] + text["what"], "{: .walker-hint }"]
    return [f'!!! walker-decision "{text["title"]}"', "", *_indented(lines), ""]


def _named(choice: Choice, language: str) -> tuple[str, str]:
    """A choice's name and what it does, in ``language``."""
    return CHOICES_ZH[choice.action] if language == "zh" else (choice.label, choice.does)


def _choice(choice: Choice, language: str = "en") -> list[str]:
    return [f"**{_named(choice, language)[0]}**", "{: .walker-choice }", "", _command_block(command(choice)), ""]


def _box(folder: str, muted: bool, language: str = "en") -> list[str]:
    """The decide box: what each choice of the bar does, and how to decide in Obsidian instead."""
    text = TEXT[language]
    if folder == "noteworthy":
        return [line.format(obsidian=text["obsidian"]) for line in text["noteworthy box"]]
    archive, archives = _named(ARCHIVE, language)
    return [text["box"], "",
            *(f"- **{name}**: {does}" for name, does in (_named(c, language) for c in (CONFIRM, REJECT, UNMUTE if muted else MUTE))),
            f"- **{archive}**: {archives}{text['terminal']}", "",
            *_indented([_command_block(command(ARCHIVE))]), "",
            text["in obsidian"].format(obsidian=text["obsidian"]), "", *text["table"], ""]


def _indented(lines: list[str]) -> list[str]:
    """Lines (each may hold several) inside a block: an admonition or a list item."""
    return [f"    {part}" if part else "" for line in lines for part in line.split("\n")]


def _command_block(command: str) -> str:
    return f"``` sh\n{command}\n```"
