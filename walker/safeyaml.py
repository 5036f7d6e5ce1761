"""YAML from untrusted text without alias expansion.

A few lines of anchors and aliases ("billion laughs") expand into gigabytes once
a reader walks the result. Notes and hand-edited records never need aliases, so
text that uses one is refused before it is loaded. The check costs nothing for
the usual front matter: only text containing ``&`` or ``*`` is tokenised.
"""

from __future__ import annotations

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlAliasError(yaml.YAMLError):
    """The YAML uses an anchor or alias, which walker does not load."""


def refuse_aliases(text: str) -> None:
    """Raise ``YamlAliasError`` when ``text`` holds a YAML alias; ``yaml.YAMLError`` when it is not YAML."""
    if "*" not in text and "&" not in text:
        return
    for token in yaml.scan(text, Loader=_Loader):
        if isinstance(token, yaml.AliasToken):
            raise YamlAliasError("YAML aliases (*name) are not read: they can expand without bound")


class _NoAliasDumper(yaml.SafeDumper):
    """Writes a value shared by two places twice, never as an anchor and alias: walker refuses aliases on reading."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def dump(data: object, **options: object) -> str:
    """YAML for ``data`` that ``refuse_aliases`` accepts (a run record holds one candidate in several phases)."""
    return yaml.dump(data, Dumper=_NoAliasDumper, **options)
