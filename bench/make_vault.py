"""Deterministic synthetic Obsidian vault for benchmarks.

    python bench/make_vault.py --notes 10000 --out bench/vaults/10k

Notes look like a real vault's: frontmatter on most, headings, paragraphs,
lists, about nine wikilinks each (some with headings, aliases or embeds),
inline tags, block ids, a code block now and then (holding ``[[`` that must
not count), and daily notes. About 2.3 KB a note, like the 6,571-note vault
the targets were set on. Same --notes and --seed, same bytes.
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

WORDS = (
    "soil compost tomato seed root leaf water light shade prune graft mulch worm pepper basil "
    "consensus replica leader quorum log lease clock partition gossip vector shard latency retry "
    "dough yeast flour salt knead proof crust oven braise stock umami acid butter garlic onion "
    "chord scale interval cadence tonic dominant minor major rhythm tempo melody harmony voice "
    "river stone bridge window morning letter journey market winter garden memory habit question"
).split()
FOLDERS = ["Garden", "Systems", "Kitchen", "Music", "Reading", "Projects", "People", "Ideas"]
TAGS = ["idea", "todo", "question", "garden", "systems", "cooking", "music", "reading", "review", "draft"]


def sentence(rng: random.Random, names: list[str], link_rate: float) -> str:
    words = []
    for _ in range(rng.randint(8, 20)):
        if rng.random() < link_rate:
            target = rng.choice(names)
            roll = rng.random()
            if roll < 0.1:
                words.append(f"[[{target}#Notes|{target.lower()}]]")
            elif roll < 0.15:
                words.append(f"![[{target}]]")
            elif roll < 0.2:
                words.append(f"[{target}]({target.replace(' ', '%20')}.md)")
            else:
                words.append(f"[[{target}]]")
        elif rng.random() < 0.02:
            words.append("#" + rng.choice(TAGS))
        else:
            words.append(rng.choice(WORDS))
    return " ".join(words).capitalize() + "."


def note(rng: random.Random, index: int, names: list[str]) -> str:
    parts = []
    if rng.random() < 0.7:
        tags = rng.sample(TAGS, rng.randint(1, 3))
        parts.append(f"---\ntags: [{', '.join(tags)}]\ncreated: 2024-{1 + index % 12:02}-{1 + index % 28:02}\n---\n")
    parts.append(f"# {names[index]}\n")
    for section in range(rng.randint(2, 4)):
        parts.append(f"\n## {'Notes' if section == 0 else rng.choice(WORDS).title()}\n\n")
        for _ in range(rng.randint(1, 3)):
            paragraph = " ".join(sentence(rng, names, 0.035) for _ in range(rng.randint(2, 4)))
            if rng.random() < 0.2:
                paragraph += f" ^b{index}x{section}"
            parts.append(paragraph + "\n\n")
        if rng.random() < 0.3:
            parts.append("".join(f"- {sentence(rng, names, 0.05)}\n" for _ in range(rng.randint(2, 5))) + "\n")
        if rng.random() < 0.08:
            parts.append("```bash\nif [[ $# -gt 0 ]]; then echo [[not a link]]; fi\n```\n\n")
    return "".join(parts)


def make_vault(out: Path, notes: int, seed: int = 1) -> Path:
    rng = random.Random(seed)
    if out.exists():
        shutil.rmtree(out)
    daily = max(1, notes // 20)
    names = [f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {i}" for i in range(notes - daily)]
    names += [f"2024-{1 + i // 28 % 12:02}-{1 + i % 28:02} {i}" for i in range(daily)]
    for index, name in enumerate(names):
        folder = "Daily" if index >= notes - daily else FOLDERS[index % len(FOLDERS)]
        if index >= notes - daily:
            body = f"# {name}\n\n" + "".join(f"- {sentence(rng, names, 0.12)}\n" for _ in range(rng.randint(3, 8)))
        else:
            body = note(rng, index, names)
        path = out / folder / f"{name}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    make_vault(args.out, args.notes, args.seed)
    print(f"wrote {args.notes} notes to {args.out}")


if __name__ == "__main__":
    main()
