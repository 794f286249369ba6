"""Turns benchmark runs into results: CSV, a Markdown table in the published format, and one
self-contained HTML report with inline SVG charts (no scripts or files fetched from anywhere).

Pure functions over plain dicts, so they can be unit-tested without k6 or a JVM (load/tests/).

A *run* (one configuration) is a dict:
    {"config": "web-tomcat-jvm-platform", "app": "web", "server": "tomcat", "boot": "4", "model": "platform",
     "flavour": "jvm", "reported": {"model": ..., "server": ..., "flavour": ...},
     "startup_s": 1.8, "peak_cpu_pct": 103.8, "peak_rss_mb": 281.1, "mem_cap": "...",
     "steps": [step rows as written by steps.js], "ramp": ramp row or None,
     "thresholds_ok": True, "error": None}

"boot" is the Spring Boot line the sample was built on: "4" or "3" (Spring Boot 3.5, -Pboot3); the reports
show it as 4 / 3.5 in a `boot` column. Runs written before the line was recorded show it empty (or 3.5 when
the configuration's name says boot3).
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from typing import Iterable

STEP_FIELDS = ["requests", "concurrency", "success_pct", "total_s", "slowest_s", "fastest_s",
               "average_s", "p95_s", "requests_per_s"]

CSV_COLUMNS = ["config", "app", "server", "boot", "model", "flavour", "reported_model", "reported_server",
               "reported_flavour", "startup_s", "peak_cpu_pct", "peak_rss_mb", "k6_peak_cpu_pct", "accept_backlog",
               "mem_cap", "script",
               "endpoint", "keep_alive", *STEP_FIELDS, "median_s", "p90_s", "thresholds_ok", "error"]


# ---------------------------------------------------------------- parsing k6 summaries

def parse_steps_summary(doc: dict) -> list[dict]:
    """Rows of a steps.js handleSummary JSON ({"steps": [...]}), numbers as floats or None."""
    rows = []
    for r in doc.get("steps", []):
        row = {k: _num(r.get(k)) for k in STEP_FIELDS}
        row["requests"] = int(r.get("requests") or 0)
        row["concurrency"] = int(r.get("concurrency") or row["requests"])
        row["completed"] = int(r.get("completed") or 0)
        rows.append(row)
    return rows


def parse_ramp_summary(doc: dict) -> dict:
    """The published ramp figures (requests, req/s, avg/med/p90/p95 ms, max s) from ramp.js's JSON."""
    metrics = doc.get("k6", {}).get("metrics", {})
    req = metrics.get("requests", {}).get("values", {})
    rt = metrics.get("response_time", {}).get("values", {})
    err = metrics.get("errors", {}).get("values", {})
    count = int(req.get("count") or 0)
    return {
        "requests": count,
        "requests_per_s": _num(req.get("rate")),
        "average_ms": _num(rt.get("avg")),
        "median_ms": _num(rt.get("med")),
        "p90_ms": _num(rt.get("p(90)")),
        "p95_ms": _num(rt.get("p(95)")),
        "p99_ms": _num(rt.get("p(99)")),
        "max_s": None if rt.get("max") is None else rt["max"] / 1000.0,
        "error_pct": None if err.get("rate") is None else 100.0 * err["rate"],
        "peak_vus": doc.get("peak_vus"),
        "stage_scale": doc.get("stage_scale"),
        "thresholds_failed": list(doc.get("thresholds_failed", [])),
        "endpoint": _path_of(doc.get("target", "")),
    }


def _path_of(url: str) -> str:
    """'http://127.0.0.1:8080/products/1' -> '/products/1' (ports differ per run)."""
    if "://" in url:
        rest = url.split("://", 1)[1]
        return rest[rest.find("/"):] if "/" in rest else "/"
    return url


def flavour_name(f) -> str:
    """runtime.flavour is a string ("jvm") or an object ({"name": "jvm", "cds": false, ...})."""
    if isinstance(f, str) and f:
        return f
    if isinstance(f, dict) and isinstance(f.get("name"), str) and f["name"]:
        return f["name"]
    return "unknown"


def parse_threadmodel(doc: dict) -> dict:
    """The fields of /actuator/threadmodel the runner relies on. startup_s is applicationReadyMs,
    which is null until the application-ready event (the endpoint can answer a moment before)."""
    startup = doc.get("startup") or {}
    runtime = doc.get("runtime") or {}
    ready = startup.get("applicationReadyMs")
    return {
        "model": doc.get("model", "unknown"),
        "model_source": doc.get("modelSource", "unknown"),
        "server": doc.get("server", "unknown"),
        "flavour": flavour_name(runtime.get("flavour")),
        "startup_s": None if ready is None else float(ready) / 1000.0,
        "accept_backlog": (doc.get("connections") or {}).get("acceptBacklog"),
    }


def boot_label(run: dict) -> str | None:
    """The Spring Boot line of a run as the reports show it: "4", "3.5", or None when not recorded."""
    boot = run.get("boot")
    if boot is None and "-boot3-" in str(run.get("config", "")):
        boot = "3"
    if boot is None:
        return None
    return "3.5" if str(boot) == "3" else str(boot)


def _num(v):
    if v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else f


# ---------------------------------------------------------------- /proc sampling helpers

def parse_proc_stat_ticks(stat_line: str) -> int:
    """utime + stime (clock ticks) from a /proc/<pid>/stat line. The command name (field 2) may
    contain spaces and parentheses, so split after the last ')'."""
    rest = stat_line[stat_line.rindex(")") + 2:].split()
    # rest[0] is field 3 (state); utime and stime are fields 14 and 15.
    return int(rest[11]) + int(rest[12])


def parse_vmrss_kb(status_text: str) -> int | None:
    for line in status_text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def cpu_percent(ticks_before: int, ticks_after: int, seconds: float, clk_tck: int = 100) -> float:
    """CPU use over an interval, 100 % = one core fully busy (the docker stats convention)."""
    if seconds <= 0:
        return 0.0
    return 100.0 * (ticks_after - ticks_before) / clk_tck / seconds


# ---------------------------------------------------------------- CSV

def csv_rows(runs: Iterable[dict]) -> list[dict]:
    out = []
    for run in runs:
        rep = run.get("reported") or {}
        base = {
            "config": run["config"], "app": run["app"], "server": run["server"], "boot": boot_label(run),
            "model": run["model"],
            "flavour": run["flavour"], "reported_model": rep.get("model"), "reported_server": rep.get("server"),
            "reported_flavour": rep.get("flavour"), "startup_s": run.get("startup_s"),
            "peak_cpu_pct": run.get("peak_cpu_pct"), "peak_rss_mb": run.get("peak_rss_mb"),
            "k6_peak_cpu_pct": run.get("k6_peak_cpu_pct"), "accept_backlog": run.get("accept_backlog"),
            "mem_cap": run.get("mem_cap", ""), "thresholds_ok": run.get("thresholds_ok"),
            "error": run.get("error") or "",
        }
        if not run.get("steps") and not run.get("ramp"):
            out.append({**base, "script": ""})
        for s in run.get("steps") or []:
            out.append({**base, "script": "steps", "endpoint": run.get("steps_endpoint", ""),
                        "keep_alive": run.get("keep_alive"), **{k: s.get(k) for k in STEP_FIELDS}})
        ramp = run.get("ramp")
        if ramp:
            out.append({**base, "script": "ramp", "endpoint": ramp.get("endpoint", ""),
                        "requests": ramp["requests"], "concurrency": ramp.get("peak_vus"),
                        "success_pct": None if ramp.get("error_pct") is None else 100.0 - ramp["error_pct"],
                        "slowest_s": ramp.get("max_s"),
                        "average_s": _div(ramp.get("average_ms"), 1000), "median_s": _div(ramp.get("median_ms"), 1000),
                        "p90_s": _div(ramp.get("p90_ms"), 1000), "p95_s": _div(ramp.get("p95_ms"), 1000),
                        "requests_per_s": ramp.get("requests_per_s")})
    return out


def _div(v, d):
    return None if v is None else v / d


def to_csv(runs: Iterable[dict]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for row in csv_rows(runs):
        w.writerow({k: _csv_value(row.get(k)) for k in CSV_COLUMNS})
    return buf.getvalue()


def _csv_value(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.4f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v)) if abs(v) < 1e15 else str(v)
    return v


# ---------------------------------------------------------------- Markdown

def _avg_cell(step) -> str:
    if not step:
        return "—"
    cell = fmt(step.get("average_s"))
    ok = step.get("success_pct")
    if ok is not None and ok < 100:
        cell += f" ({ok:.0f} % ok)"
    return cell


def _boot_cell(run) -> str:
    return boot_label(run) or "—"


def fmt(v, digits=2, dash="—"):
    if v is None:
        return dash
    return f"{v:.{digits}f}"


def markdown(runs: list[dict], meta: dict | None = None) -> str:
    """Tables in the published format (requests, concurrency, success %, total, slowest, fastest,
    average, requests/s; startup, peak CPU %, peak memory MB; the ramp table; avg per step)."""
    meta = meta or {}
    lines = []
    if meta:
        lines.append(f"Machine: {meta.get('machine', '?')}. Load generator (k6 {meta.get('k6_version', '?')}) "
                     "on the same host. " + meta.get("note", ""))
        lines.append("")
    step_runs = [r for r in runs if r.get("steps")]
    if step_runs:
        ka = step_runs[0].get("keep_alive")
        lines += [f"### Concurrency steps (`{step_runs[0].get('steps_endpoint', '')}`, keep-alive "
                  f"{'on' if ka else 'off'}; times in seconds)", "",
                  "| config | boot | requests | concurrency | success % | total s | slowest s | fastest s | avg s | p95 s | req/s |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in step_runs:
            for s in r["steps"]:
                lines.append(f"| {r['config']} | {_boot_cell(r)} | {s['requests']} | {s['concurrency']} | {fmt(s['success_pct'], 1)} | "
                             f"{fmt(s['total_s'])} | {fmt(s['slowest_s'])} | {fmt(s['fastest_s'])} | "
                             f"{fmt(s['average_s'])} | {fmt(s['p95_s'])} | {fmt(s['requests_per_s'], 1)} |")
        lines.append("")
        concs = sorted({s["concurrency"] for r in step_runs for s in r["steps"]})
        lines += ["### Average response time per concurrency step (s)", "",
                  "| config | boot | " + " | ".join(str(c) for c in concs) + " |",
                  "|---|---|" + "---|" * len(concs)]
        for r in step_runs:
            by = {s["concurrency"]: s for s in r["steps"]}
            lines.append(f"| {r['config']} | {_boot_cell(r)} | " + " | ".join(_avg_cell(by.get(c)) for c in concs) + " |")
        lines.append("")
        if any((s.get("success_pct") or 0) < 100 for r in step_runs for s in r["steps"]):
            lines += ["A step marked with its success % lost requests (errors or the step window); the charts "
                      "leave out steps under 50 % success.", ""]
    ramp_runs = [r for r in runs if r.get("ramp")]
    if ramp_runs:
        r0 = ramp_runs[0]["ramp"]
        lines += [f"### Ramp (`{r0.get('endpoint', '')}`, peak {r0.get('peak_vus')} VUs, stage scale "
                  f"{r0.get('stage_scale')})", "",
                  "| config | boot | requests | req/s | avg ms | med ms | p90 ms | p95 ms | max s | errors % | thresholds |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in ramp_runs:
            m = r["ramp"]
            lines.append(f"| {r['config']} | {_boot_cell(r)} | {m['requests']} | {fmt(m['requests_per_s'])} | {fmt(m['average_ms'], 1)} | "
                         f"{fmt(m['median_ms'], 1)} | {fmt(m['p90_ms'], 1)} | {fmt(m['p95_ms'], 1)} | "
                         f"{fmt(m['max_s'])} | {fmt(m['error_pct'], 2)} | "
                         f"{'ok' if not m['thresholds_failed'] else 'FAILED: ' + ', '.join(m['thresholds_failed'])} |")
        lines.append("")
    lines += ["### Startup and resources (peak over the load phases, sampled from /proc)", "",
              "| config | boot | startup s | max CPU % | max memory MB | k6 max CPU % | accept backlog | memory cap | "
              "reported model/server/flavour |",
              "|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        rep = r.get("reported") or {}
        lines.append(f"| {r['config']} | {_boot_cell(r)} | {fmt(r.get('startup_s'), 3)} | {fmt(r.get('peak_cpu_pct'), 1)} | "
                     f"{fmt(r.get('peak_rss_mb'), 1)} | {fmt(r.get('k6_peak_cpu_pct'), 1)} | "
                     f"{r.get('accept_backlog') if r.get('accept_backlog') is not None else '—'} | "
                     f"{r.get('mem_cap') or 'none'} | "
                     f"{rep.get('model', '?')}/{rep.get('server', '?')}/{rep.get('flavour', '?')}"
                     f"{' — ERROR: ' + r['error'] if r.get('error') else ''} |")
    lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------- SVG charts

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#bcbd22", "#7f7f7f", "#393b79", "#e7969c", "#637939", "#fdae6b"]


def _nice_max(v: float) -> float:
    if v is None or v <= 0:
        return 1.0
    exp = 10 ** math.floor(math.log10(v))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if v <= m * exp:
            return m * exp
    return 10 * exp


def _tick_label(v: float) -> str:
    if v == 0:
        return "0"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _esc(s) -> str:
    return html.escape(str(s), quote=True)


def _chart_frame(chart_id: str, title: str, y_label: str, width: int, height: int, plot: tuple, top: float) -> list[str]:
    """The opening of a chart's SVG: the element with its plot area, background, title, y grid and y label."""
    ml, mt, pw, ph = plot
    out = [f'<svg id="{_esc(chart_id)}" class="chart" data-chart="{_esc(chart_id)}" data-plot="{ml},{mt},{pw},{ph}" '
           f'xmlns="http://www.w3.org/2000/svg" '
           f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="{_esc(title)}">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">{_esc(title)}</text>']
    for i in range(6):
        v = top * i / 5
        y = mt + ph - ph * i / 5
        out.append(f'<line x1="{ml}" y1="{y:.1f}" x2="{ml + pw}" y2="{y:.1f}" stroke="#dddddd"/>')
        out.append(f'<text x="{ml - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{_tick_label(v)}</text>')
    out.append(f'<text x="14" y="{mt + ph / 2:.1f}" transform="rotate(-90 14 {mt + ph / 2:.1f})" '
               f'text-anchor="middle" font-size="12">{_esc(y_label)}</text>')
    return out


def svg_grouped_bars(chart_id: str, title: str, groups: list[str], series: dict[str, list], y_label: str,
                     width: int = 900, height: int = 360) -> str:
    """Bars grouped by `groups` (x axis), one colour per series; None values are left out."""
    names = list(series)
    values = [v for vs in series.values() for v in vs if v is not None]
    top = _nice_max(max(values) if values else 1.0)
    height += 18 * math.ceil(len(names) / 3)  # room for the legend, whatever the number of series
    ml, mr, mt, mb = 64, 16, 36, 56 + 18 * math.ceil(len(names) / 3)
    pw, ph = width - ml - mr, height - mt - mb
    out = _chart_frame(chart_id, title, y_label, width, height, (ml, mt, pw, ph), top)
    gw = pw / max(1, len(groups))
    bw = max(2.0, (gw * 0.8) / max(1, len(names)))
    for gi, g in enumerate(groups):
        gx = ml + gi * gw + gw * 0.1
        out.append(f'<text x="{ml + gi * gw + gw / 2:.1f}" y="{mt + ph + 16}" text-anchor="middle" font-size="11">{_esc(g)}</text>')
        for si, name in enumerate(names):
            v = series[name][gi] if gi < len(series[name]) else None
            if v is None:
                continue
            h = ph * v / top
            out.append(f'<rect class="mark" x="{gx + si * bw:.1f}" y="{mt + ph - h:.1f}" width="{bw * 0.92:.1f}" '
                       f'height="{max(h, 0.5):.1f}" fill="{PALETTE[si % len(PALETTE)]}">'
                       f'<title>{_esc(name)} @ {_esc(g)}: {_tick_label(v)}</title></rect>')
            if bw >= 28:
                out.append(f'<text x="{gx + si * bw + bw * 0.46:.1f}" y="{mt + ph - h - 4:.1f}" text-anchor="middle" '
                           f'font-size="11">{_tick_label(v)}</text>')
    out.append(f'<line x1="{ml}" y1="{mt + ph}" x2="{ml + pw}" y2="{mt + ph}" stroke="#333333"/>')
    out += _legend(names, ml, mt + ph + 34, pw)
    out.append("</svg>")
    return "\n".join(out)


def svg_lines(chart_id: str, title: str, x_labels: list[str], series: dict[str, list], y_label: str,
              x_title: str = "", width: int = 900, height: int = 380) -> str:
    """One polyline per series over categorical x positions; None values break nothing, they are skipped."""
    names = list(series)
    values = [v for vs in series.values() for v in vs if v is not None]
    top = _nice_max(max(values) if values else 1.0)
    height += 18 * math.ceil(len(names) / 3)
    ml, mr, mt, mb = 64, 24, 36, 70 + 18 * math.ceil(len(names) / 3)
    pw, ph = width - ml - mr, height - mt - mb
    out = _chart_frame(chart_id, title, y_label, width, height, (ml, mt, pw, ph), top)
    n = len(x_labels)

    def xpos(i):
        return ml + (pw * (i + 0.5) / n if n else 0)

    for i, lab in enumerate(x_labels):
        out.append(f'<text x="{xpos(i):.1f}" y="{mt + ph + 16}" text-anchor="middle" font-size="11">{_esc(lab)}</text>')
    if x_title:
        out.append(f'<text x="{ml + pw / 2:.1f}" y="{mt + ph + 32}" text-anchor="middle" font-size="12">{_esc(x_title)}</text>')
    for si, name in enumerate(names):
        color = PALETTE[si % len(PALETTE)]
        pts = [(xpos(i), mt + ph - ph * v / top) for i, v in enumerate(series[name]) if v is not None]
        if len(pts) > 1:
            out.append(f'<polyline class="mark" fill="none" stroke="{color}" stroke-width="3" points="'
                       + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>')
        for (x, y), v in zip(pts, [v for v in series[name] if v is not None]):
            out.append(f'<circle class="mark" cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{color}">'
                       f'<title>{_esc(name)}: {_tick_label(v)}</title></circle>')
    out.append(f'<line x1="{ml}" y1="{mt + ph}" x2="{ml + pw}" y2="{mt + ph}" stroke="#333333"/>')
    out += _legend(names, ml, mt + ph + 50, pw)
    out.append("</svg>")
    return "\n".join(out)


def _legend(names, x0, y0, width):
    out, per_row = [], 3
    col_w = width / per_row
    for i, name in enumerate(names):
        x = x0 + (i % per_row) * col_w
        y = y0 + (i // per_row) * 18
        out.append(f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="14" height="10" fill="{PALETTE[i % len(PALETTE)]}"/>')
        out.append(f'<text x="{x + 20:.1f}" y="{y:.1f}" font-size="12">{_esc(name)}</text>')
    return out


# ---------------------------------------------------------------- HTML report

def charts(runs: list[dict]) -> list[tuple[str, str]]:
    """(chart id, svg) for every chart the data supports."""
    out = []
    step_runs = [r for r in runs if r.get("steps")]
    if step_runs:
        concs = sorted({s["concurrency"] for r in step_runs for s in r["steps"]})
        labels = [str(c) for c in concs]

        def per_step(field):
            # Steps where most requests failed are left out: their times are the timeout, not the server.
            series = {}
            for r in step_runs:
                by = {s["concurrency"]: s for s in r["steps"] if (s.get("success_pct") or 0) >= 50}
                series[r["config"]] = [(by.get(c) or {}).get(field) for c in concs]
            return series

        out.append(("chart-avg-response", svg_lines("chart-avg-response",
                                                    "Average response time per concurrency step",
                                                    labels, per_step("average_s"), "seconds",
                                                    x_title="concurrent requests (= requests)")))
        out.append(("chart-rps", svg_grouped_bars("chart-rps", "Requests per second per concurrency step",
                                                  labels, per_step("requests_per_s"), "req/s")))
    ramp_runs = [r for r in runs if r.get("ramp")]
    if ramp_runs:
        out.append(("chart-ramp", svg_grouped_bars(
            "chart-ramp", "Ramp: response time (ms)", ["avg", "median", "p90", "p95"],
            {r["config"]: [r["ramp"].get(k) for k in ("average_ms", "median_ms", "p90_ms", "p95_ms")] for r in ramp_runs},
            "ms")))
        out.append(("chart-ramp-rps", svg_grouped_bars(
            "chart-ramp-rps", "Ramp: requests per second", ["req/s"],
            {r["config"]: [r["ramp"].get("requests_per_s")] for r in ramp_runs}, "req/s", height=300)))
    ok_runs = [r for r in runs if r.get("startup_s") is not None or r.get("peak_rss_mb") is not None]
    if ok_runs:
        for cid, title, field, unit in (("chart-startup", "Startup (JVM start to application ready)", "startup_s", "seconds"),
                                        ("chart-cpu", "Peak CPU % (100 % = one core)", "peak_cpu_pct", "%"),
                                        ("chart-memory", "Peak memory (RSS)", "peak_rss_mb", "MB")):
            out.append((cid, svg_grouped_bars(cid, title, [""], {r["config"]: [r.get(field)] for r in ok_runs},
                                              unit, height=300)))
    return out


LAYOUT_SCRIPT = """
// Writes each chart's position into the page, so a headless-browser check can crop the screenshot
// to the charts (load/check_report_render.py). Inline, no network.
window.addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('svg[data-chart]').forEach(function (s) {
    var r = s.getBoundingClientRect();
    var p = (s.getAttribute('data-plot') || '0,0,0,0').split(',').map(Number);
    out.push({id: s.id, x: Math.round(r.left + window.scrollX), y: Math.round(r.top + window.scrollY),
              w: Math.round(r.width), h: Math.round(r.height), marks: s.querySelectorAll('.mark').length,
              plot: {x: Math.round(r.left + window.scrollX + p[0]), y: Math.round(r.top + window.scrollY + p[1]),
                     w: p[2], h: p[3]}});
  });
  var pre = document.getElementById('chart-layout');
  pre.textContent = JSON.stringify({page: {w: document.documentElement.scrollWidth,
                                           h: document.documentElement.scrollHeight}, charts: out});
});
"""


def html_report(runs: list[dict], meta: dict | None = None, links: dict | None = None) -> str:
    meta = meta or {}
    md = markdown(runs, meta)
    chart_svgs = charts(runs)
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>threadmodel benchmark {_esc(meta.get('timestamp', ''))}</title>",
             "<style>body{font-family:sans-serif;margin:24px;max-width:1000px;color:#222;background:#fff}"
             "table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;"
             "font-size:13px;text-align:right}td:first-child,th:first-child{text-align:left}"
             "svg.chart{display:block;margin:12px 0 24px}pre.meta{background:#f6f6f6;padding:8px;font-size:12px;"
             "white-space:pre-wrap}#chart-layout{display:none}</style></head><body>",
             f"<h1>threadmodel benchmark {_esc(meta.get('timestamp', ''))}</h1>"]
    if meta:
        parts.append(f"<p>{_esc(meta.get('machine', ''))}; k6 {_esc(meta.get('k6_version', ''))} on the same host. "
                     f"{_esc(meta.get('note', ''))}</p>")
    parts.append("<h2>Charts</h2>")
    for _, svg in chart_svgs:
        parts.append(svg)
    parts.append("<h2>Tables</h2>")
    parts.append(markdown_tables_to_html(md))
    if links:
        parts.append("<h2>Per-run files</h2><ul>")
        for label, href in links.items():
            parts.append(f'<li><a href="{_esc(href)}">{_esc(label)}</a></li>')
        parts.append("</ul>")
    if meta:
        parts.append("<h2>Run details</h2>")
        parts.append('<pre class="meta">' + _esc(json.dumps(meta, indent=2, default=str)) + "</pre>")
    parts.append('<pre id="chart-layout"></pre>')
    parts.append(f"<script>{LAYOUT_SCRIPT}</script>")
    parts.append("</body></html>")
    return "\n".join(parts)


def markdown_tables_to_html(md: str) -> str:
    """Just enough Markdown for what markdown() writes: ### headings, pipe tables, paragraphs."""
    out, in_table = [], False
    for line in md.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(set(c) <= {"-", ":"} for c in cells):
                continue
            if not in_table:
                out.append("<table><tr>" + "".join(f"<th>{_esc(c)}</th>" for c in cells) + "</tr>")
                in_table = True
            else:
                out.append("<tr>" + "".join(f"<td>{_bold(_esc(c))}</td>" for c in cells) + "</tr>")
            continue
        if in_table:
            out.append("</table>")
            in_table = False
        if line.startswith("### "):
            out.append(f"<h3>{_esc(line[4:]).replace('`', '')}</h3>")
        elif line.strip():
            out.append(f"<p>{_bold(_esc(line))}</p>")
    if in_table:
        out.append("</table>")
    return "\n".join(out)


def _bold(text: str) -> str:
    """Markdown's **bold** as <b>."""
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)


# ---------------------------------------------------------------- files

def write_all(root, runs: list[dict], meta: dict, links: dict | None = None) -> None:
    """results.csv, results.md, report.html, meta.json and charts/<id>.svg under root."""
    from pathlib import Path
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    (root / "results.csv").write_text(to_csv(runs))
    (root / "results.md").write_text(f"# threadmodel benchmark {meta.get('timestamp', '')}\n\n"
                                     f"Command: `{meta.get('command', '')}`\n\n" + markdown(runs, meta))
    (root / "report.html").write_text(html_report(runs, meta, links))
    (root / "meta.json").write_text(json.dumps(meta, indent=2, default=str))
    charts_dir = root / "charts"
    charts_dir.mkdir(exist_ok=True)
    for cid, svg in charts(runs):
        (charts_dir / f"{cid}.svg").write_text(svg + "\n")


def main(argv=None) -> int:
    """Merges the runs of several results/<timestamp>/ folders into one report:
        python3 load/report.py results/20261122-035655 results/20261122-041000 -o results/combined
    DIR=LABEL appends "+LABEL" to that folder's configuration names (runs of the same configuration
    with other settings, e.g. results/20261122-041829=heap60).
    """
    import argparse
    from pathlib import Path
    ap = argparse.ArgumentParser(description=main.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("-o", "--out", type=Path, required=True)
    a = ap.parse_args(argv)
    runs, metas = [], []
    for arg in a.dirs:
        d, _, label = arg.partition("=")
        d = Path(d)
        meta_file = d / "meta.json"
        metas.append(json.loads(meta_file.read_text()) if meta_file.exists() else {})
        order = {name: i for i, name in enumerate(metas[-1].get("configs") or [])}
        for rf in sorted(d.glob("*/run.json"), key=lambda f: (order.get(f.parent.name, len(order)), f.parent.name)):
            run = json.loads(rf.read_text())
            run.setdefault("source", d.name)
            if label:
                run["config"] = f"{run['config']}+{label}"
            runs.append(run)
    meta = dict(metas[0]) if metas else {}
    meta["timestamp"] = " + ".join(m.get("timestamp", "?") for m in metas)
    meta["command"] = " ; ".join(m.get("command", "?") for m in metas)
    meta["merged_from"] = [str(d) for d in a.dirs]
    write_all(a.out, runs, meta)
    print(f"{len(runs)} runs -> {a.out / 'report.html'}")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main())
