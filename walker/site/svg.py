"""SVG pictures made inert before they reach the site.

An SVG is a document: opened on its own it runs its scripts and event handlers.
The site copies a note's SVG attachments (and the walk pictures) through this
allowlist: drawing elements and presentation attributes stay, scripts, event
handlers, foreign content, entity declarations and links to anything but the
page itself or a plain relative path go. What cannot be parsed is not copied.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from walker.site.markdown_ext import safe_classes, safe_id

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
ELEMENTS = frozenset(
    "svg g defs title desc metadata path rect circle ellipse line polyline polygon text tspan textPath "
    "linearGradient radialGradient stop clipPath mask pattern symbol use marker a filter feGaussianBlur "
    "feOffset feBlend feColorMatrix feFlood feComposite feMerge feMergeNode feMorphology switch".split()
)
SAFE_HREF = re.compile(r"#[\w.:-]*|(?![a-zA-Z][a-zA-Z0-9+.-]*:)[^\s\"'<>]*")
MAX_BYTES = 5 * 1024 * 1024

ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)


def sanitize_svg(data: bytes) -> bytes | None:
    """The picture without anything that can run, or None when it is not an SVG walker can read."""
    if len(data) > MAX_BYTES or b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        return None  # entity declarations are how XML expands without bound
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return None
    if _local(root.tag) != "svg":
        return None
    _clean(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8", xml_declaration=False)


def inline_picture(data: bytes, href_of: Callable[[str], str | None]) -> str | None:
    """A walk picture to place inside a page: made inert like any SVG, its own colours left to the site's
    stylesheet (an inline <style> would restyle the whole page), and each note's dot and label a link to
    that note's page where ``href_of`` knows one. None when the picture cannot be read."""
    clean = sanitize_svg(data)
    if clean is None:
        return None
    root = ET.fromstring(clean)
    for parent in list(root.iter()):  # any <style>, however deep: inside a page it would restyle the page
        for style in [child for child in parent if _local(child.tag) == "style"]:
            parent.remove(style)
    for name in ("width", "height", "font-family", "font-size"):
        root.attrib.pop(name, None)
    title = next((child.text or "" for child in root if _local(child.tag) == "title"), "")
    root.set("class", "walk-picture")
    root.set("role", "group")
    root.set("aria-label", title)
    for parent in list(root.iter()):
        for at, child in enumerate(list(parent)):
            note = child.get("data-note")
            if note is None:
                continue
            del child.attrib["data-note"]
            href = href_of(note)
            if href is not None:
                link = ET.Element(f"{{{SVG}}}a", {"href": href})
                parent.remove(child)
                link.append(child)
                parent.insert(at, link)
    return ET.tostring(root, encoding="unicode")


def _clean(element: ET.Element) -> None:
    for child in list(element):
        if not isinstance(child.tag, str) or not child.tag.startswith("{" + SVG + "}"):
            element.remove(child)  # unknown namespaces, comments, processing instructions
        elif _local(child.tag) == "style" and not re.search(r"url\s*\(|@import|expression|<", child.text or "", re.I):
            child.attrib.clear()  # plain CSS rules stay: the walk pictures use them
            for grandchild in list(child):
                child.remove(grandchild)
        elif _local(child.tag) not in ELEMENTS:
            element.remove(child)  # scripts, foreignObject, iframes, styles that fetch
        else:
            _clean(child)
    for name in list(element.attrib):
        local, value = _local(name).lower(), element.attrib[name]
        if local.startswith("on") or "javascript:" in value.lower().replace(" ", "") or (
            local == "href" and not SAFE_HREF.fullmatch(value.strip())
        ):
            del element.attrib[name]
        elif local == "style" and re.search(r"url\s*\(|@import|expression", value, re.IGNORECASE):
            del element.attrib[name]
        elif local in ("id", "class"):  # the page's rule for ids and classes: the picture is drawn inside a page
            kept = safe_id(value) if local == "id" else safe_classes(value)
            if kept is None:
                del element.attrib[name]
            else:
                element.attrib[name] = kept


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]
