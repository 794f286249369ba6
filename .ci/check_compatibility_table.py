#!/usr/bin/env python3
"""Checks README.md's compatibility table against .ci/run: every cell names at least one CI step, or says that no CI
step backs it, and every step it names (a backticked title after "suite:", "samples:" and the like) is a step .ci/run
runs (its `step "..."` title, with the loop's $server spelled out)."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def step_titles(run: str) -> set[str]:
    titles = set(re.findall(r'^\s*step "([^"]*)"', run, re.MULTILINE))
    loop = re.search(r'^for server in ([a-z ]+); do', run, re.MULTILINE)
    servers = loop.group(1).split() if loop else []
    expanded = {t.replace("$server", s) for t in titles if "$server" in t for s in servers}
    return {t for t in titles if "$server" not in t} | expanded


def table_cells(readme: str) -> list[tuple[str, str]]:
    section = readme.split("## Compatibility", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| Spring Boot")]
    cells = []
    for row in rows:
        parts = [part.strip() for part in row.strip("|").split("|")]
        cells += [(f"{parts[0]} {parts[1]}, {jdk}", cell) for jdk, cell in zip(("JDK 21", "JDK 25"), parts[2:4])]
    return cells


def main() -> int:
    titles = step_titles((ROOT / ".ci" / "run").read_text())
    cells = table_cells((ROOT / "README.md").read_text())
    problems = []
    if not cells:
        problems.append("README.md has no compatibility table")
    for where, cell in cells:
        named = re.findall(r"`([^`]+)`", cell)
        if not named and "no CI step" not in cell:
            problems.append(f"{where}: names no CI step and does not say that none backs it")
        problems += [f"{where}: no step \"{title}\" in .ci/run" for title in named if title not in titles]
    for problem in problems:
        print(f"compatibility table: {problem}", file=sys.stderr)
    if not problems:
        print(f"compatibility table: {len(cells)} cells, every step they name runs in .ci/run")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
