#!/usr/bin/env python3
"""Draws the headline chart of docs/benchmarks.md from the committed results: the average time of 2700 simultaneous
1-s requests, starter against plain Spring Boot, per server and Boot line, on the default heap and on a 256 MB one,
read from the Markdown table of docs/results/2026-11-25-versus-plain.md (load/versus_plain.py's full run). The bars
are report.py's (the charts of every report in load/), so the image needs nothing beyond the standard library.

    python3 load/versus_plain_chart.py      # writes docs/benchmarks/starter-vs-plain-2700.svg
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import report  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs/results/2026-11-25-versus-plain.md"
OUT = ROOT / "docs/benchmarks/starter-vs-plain-2700.svg"
MEASURE = "2700 at once, average (s)"
SERVERS = [("4", "tomcat"), ("4", "jetty"), ("4", "netty"),
           ("3.5", "tomcat"), ("3.5", "jetty"), ("3.5", "undertow"), ("3.5", "netty")]
HEAPS = [("virtual", "default heap"), ("virtual, 256 MB heap", "256 MB heap")]


def table_rows(markdown: str) -> list[dict]:
    """Every row of every Markdown table of a page, as a dict keyed by its table's header."""
    rows, header = [], None
    for line in markdown.split("\n"):
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif not set("".join(cells)) <= set("-: "):
            rows.append(dict(zip(header, cells)))
    return rows


def figure(rows: list[dict], boot: str, server: str, model: str, variant: str) -> float | None:
    """The figure of one row, None where the run gave none ("—": not every request answered)."""
    for row in rows:
        if (row.get("Boot"), row.get("server"), row.get("model, heap"), row.get("measure")) == (boot, server, model, MEASURE):
            value = row[variant]
            return None if value in ("—", "") else float(value)
    raise SystemExit(f"{RESULTS.name}: no row for Boot {boot} {server} {model} {MEASURE}")


def chart(rows: list[dict]) -> str:
    groups = [f"{server.capitalize()} {'4.1' if boot == '4' else boot}" for boot, server in SERVERS]
    series = {f"{variant}, {heap}": [figure(rows, boot, server, model, variant) for boot, server in SERVERS]
              for model, heap in HEAPS for variant in ("starter", "plain")}
    svg = report.svg_grouped_bars("starter-vs-plain-2700",
                                  "2700 simultaneous 1-s requests: average response time (lower is better)",
                                  groups, series, "seconds", width=1100)
    # report.py leaves a missing value out; here a missing bar means that no request was answered: say so
    names, width, plot_width = list(series), 1100, 1100 - 64 - 16
    group_width = plot_width / len(groups)
    bar_width = group_width * 0.8 / len(names)
    notes = []
    for si, name in enumerate(names):
        for gi, value in enumerate(series[name]):
            if value is None:
                x = 64 + gi * group_width + group_width * 0.1 + si * bar_width + bar_width * 0.46
                y = svg_plot_bottom(svg) - 6
                notes.append(f'<text x="{x:.1f}" y="{y:.1f}" transform="rotate(-90 {x:.1f} {y:.1f})" font-size="11" '
                             f'fill="#d62728">none answered (out of memory)</text>')
    return svg.replace("</svg>", "\n".join(notes) + "\n</svg>") if notes else svg


def svg_plot_bottom(svg: str) -> float:
    plot = svg.split('data-plot="', 1)[1].split('"', 1)[0].split(",")
    return float(plot[1]) + float(plot[3])


def main() -> int:
    OUT.write_text(chart(table_rows(RESULTS.read_text(encoding="utf-8"))) + "\n", encoding="utf-8")
    print(OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
