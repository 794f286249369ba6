#!/usr/bin/env python3
"""Checks the relative links of README.md and docs/**/*.md: each file linked exists, and each #anchor is a heading
of the page it points to (GitHub's heading slugs). Links to http(s) and mailto are not followed.

    python3 load/check_doc_links.py          # exit 1 and one line per broken link when any is broken
"""

from __future__ import annotations

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text: str, code_spans: bool = False) -> str:
    """The text outside fenced code blocks, without its inline code spans unless asked to keep them."""
    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line if code_spans else re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text.replace("`", ""))
    return text.replace(" ", "-")


def anchors(page: pathlib.Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in prose(page.read_text(encoding="utf-8"), code_spans=True).split("\n"):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def broken(page: pathlib.Path) -> list[str]:
    problems = []
    for m in LINK.finditer(prose(page.read_text(encoding="utf-8"))):
        target = m.group(1) or m.group(2)
        if re.match(r"^(https?:|mailto:)", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(ROOT)}: {target}"
        if not linked.exists():
            problems.append(f"{where} (no such file)")
        elif not str(linked).startswith(str(ROOT)):
            problems.append(f"{where} (outside the repository)")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            problems.append(f"{where} (no such heading)")
    return problems


def main() -> int:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    problems = [p for page in pages for p in broken(page)]
    for p in problems:
        print(p)
    print(f"{len(pages)} pages, {len(problems)} broken links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
