#!/usr/bin/env python3
"""The starter against plain Spring Boot, side by side: every server of each Boot line, the two alternating in one run.

    load/versus_plain.py                                   # every server of both lines, 3 rounds (about 3 hours, 2 cores)
    load/versus_plain.py --boots 4 --servers tomcat,netty  # Boot 4 Tomcat and its WebFlux floor
    load/versus_plain.py --servers jetty --phases virtual,platform --steps ""   # /ping and startup of Jetty only
    load/versus_plain.py --rounds 1 --steps 100,300 --ping-seconds 5 --boots 4 --servers tomcat   # a quick try
    load/versus_plain.py --list                            # the plan and its estimated length
    load/versus_plain.py --boots 4 --servers tomcat,netty --baseline ../before   # this build against another's (A/B)
    load/versus_plain.py --boots 4 --baseline ../before --list                   # that plan
    load/versus_plain.py --boots 4 --servers tomcat --phases virtual --steps "" --baseline ../before --alternate
        # /ping of both alive at once, 20 x 2 alternating windows of 5 s (--alternate-windows, --alternate-seconds)
    load/versus_plain.py --boots 4 --servers tomcat --phases virtual --steps "" --baseline ../before --together
        # /ping of both alive at once and loaded at once, 20 windows of 5 s
    load/versus_plain.py --boots 4 --servers netty --phases virtual --steps "" --baseline . --together \
        --baseline-args="--app.threads.pinning.enabled=false"   # what one feature costs: the same jar with it off

The two variants run the same sample jar (sample-web for Tomcat, Jetty, Undertow; sample-reactive for Netty):
- starter: as built, `--app.threads.model=<model>` (and the starter's defaults for everything else);
- plain: every auto-configuration of the starter excluded (the sample's own exclusions kept; see
  starter_auto_configurations.py), `--spring.threads.virtual.enabled=<model is virtual>`, and the endpoints the sample
  exposes without the starter's (health, info, prometheus), so that nothing of the starter serves a request and both
  serve the same actuator endpoints. (The starter's Boot-line check, a class lookup at startup, still runs.)
- baseline, with --baseline ROOT instead of plain: the sample jar built in ROOT, another checkout of this repository
  (the same place under ROOT; build it there as here), run exactly as the starter is. An A/B of two builds of the
  starter, e.g. before and after a refactor: the outputs say baseline, ROOT and its commit, and leave out the WebFlux
  floor (a comparison with plain Spring Boot). Boot 4 only: a Boot 3.5 sample takes the starter from the local Maven
  repository, the same for both checkouts. --baseline-args adds arguments to the baseline's command line (after the
  model): with --baseline . (this checkout), what a feature costs, the same jar with it turned off.

Per round, per Boot line and server, each variant (the order alternates every round) is started three times:
1. virtual threads, the default heap: startup to ready, the steps (100, 300, 900, 2700 simultaneous requests to
   /greetings, 1 s each, no keep-alive: load/k6/steps.js, one k6 run per step), then /ping with keep-alive at 16 and 200
   clients (load/k6/throughput.js, each measured once its rate has settled: see settled()): its requests per second
   and the server's CPU time per request over the same run (its JIT compiler threads' aside), then its peak RSS;
2. virtual threads, a 256 MB heap (-XX:MaxRAM=1024m, as in a 1 GB container): the steps, its peak RSS;
3. platform threads, the default heap: startup to ready, /ping at 16 and 200 clients.
A start whose step is not answered in full skips its larger steps (a hung JVM would time out each one). Before each
step a full collection (jcmd GC.run) empties the young generation: otherwise where the young collections fall within a
burst follows from everything the JVM allocated since it started, startup included, and one that falls inside a burst
with more requests in flight promotes them and keeps their pages resident, which moved Netty's peak RSS by 12 %
(docs/results/2026-12-08-netty-burst-rss.md); --no-collect-before-steps leaves it out.

With --alternate, /ping is taken otherwise: within one start, the rate and the CPU time per request move by ±10 % (up to
a third) from one 5-s window to the next, as much as between starts, so a start of one variant measured after a start
of the other cannot tell a 3 % difference. Each round, after the variants' own starts (which then measure startup, the
steps and peak RSS only, the RSS without /ping), each /ping phase starts BOTH variants at once: two JVMs on ports of
their own, the same JVM options, pinned alike (both servers on the server CPUs). Both are warmed up in turn (windows
alternating until each has settled), then measured in --alternate-windows windows of --alternate-seconds each per
variant, in ABBA order (A B B A A B B A ..., A the variant that went first in the round's own starts), only one under
load at a time, so that the machine's drift touches both alike. Each pair of adjacent windows (one of each variant)
gives a ratio of requests per second and one of the server's CPU time per request; results.md gives, per round and over
the whole run, the median of those ratios, their interquartile range and range (alternate_rows); the main table's
/ping ratio is the median of every pair's, its verdict on the rounds' medians (paired), each variant's figure the
median of its windows; alternating.csv holds every window (each pair start's alternate-<clients>-windows.csv too, with
the CPU time the idle JVM used meanwhile).

With --together (which implies --alternate), each window loads BOTH variants at once, by two k6 runs side by side (each
at the client count, both on the client CPUs), instead of one at a time: the two JVMs then live through the same
seconds of the machine, and a window's ratio of their CPU time per request (JIT aside) spreads about a tenth as much
as a pair of alternating windows' (docs/benchmarks.md). The requests per second are then k6's (two k6 runs share its
CPUs, which saturate first) rather than the servers': the CPU time per request is the figure that tells the two apart.

The server runs on CPUs of its own and k6 on the others (toolkit.Pinning; on 2 cores CPU 1 and CPU 0), unless --no-pin;
every output says which.

Startup is the JVM's age when Spring Boot logs "Started ... (process running for N)": the same line with and without
the starter. Rounds interleave across servers, so drift on the machine touches every pair alike.

Writes <out>/versus-plain-<time>/ (versus-baseline-<time>/ with --baseline): measurements.csv (every figure of every
round), results.md (medians, starter / plain, the spread of the per-round ratios, the verdict), results.csv (that
table), report.html (the table and the ratios as charts), meta.json, and per start its app log, k6 summaries and
warmup-<clients>-windows.csv (each warm-up window's requests per second and CPU time per request); with --alternate
also alternating.csv and, per pair start (<round>-boot<line>-<server>-alternate-<phase>/), each variant's app log, k6
summaries and warm-up windows in a folder of its own and alternate-<clients>-windows.csv.
Standard library only; loopback only.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench  # noqa: E402
import report  # noqa: E402
import toolkit  # noqa: E402
from starter_auto_configurations import plain_exclusions, plain_exposure  # noqa: E402

PLAIN, BASELINE = "plain", "baseline"  # what the starter is compared with: plain Spring Boot, or another build of it
VARIANTS = ("starter", PLAIN)
SERVERS_BY_BOOT = {"4": ["tomcat", "jetty", "netty"], "3": ["tomcat", "jetty", "undertow", "netty"]}
FLOOR_SERVER = "netty"  # sample-reactive: Mono.delay, no request thread is held while a request waits
SMALL_HEAP = "-XX:MaxRAM=1024m"
RATIO_GOAL = 1.00
NOISE = 0.03  # the tolerance: a ratio beyond 1.03 the wrong way, in every round, is a defect
FLOOR_TOLERANCE = 0.05


@dataclass(frozen=True)
class Target:
    boot: str
    server: str

    @property
    def app(self) -> str:
        return "reactive" if self.server == FLOOR_SERVER else "web"

    @property
    def label(self) -> str:
        return f"Boot {'3.5' if self.boot == '3' else self.boot} {self.server}"

    @property
    def jar(self) -> Path:
        return bench.jar_path(self.app, self.server, self.boot)

    def jar_in(self, root: Path) -> Path:
        """The same sample jar in another checkout."""
        return bench.jar_path(self.app, self.server, self.boot, root)


@dataclass(frozen=True)
class Phase:
    """One start of one variant: the model, the JVM's memory option, what is measured."""
    name: str
    model: str
    jvm: tuple = ()
    steps: bool = False
    ping: bool = False
    startup: bool = False


PHASES = (Phase("virtual", "virtual", steps=True, ping=True, startup=True),
          Phase("virtual-256m", "virtual", jvm=(SMALL_HEAP,), steps=True),
          Phase("platform", "platform", ping=True, startup=True))
PHASE_NAMES = [ph.name for ph in PHASES]


def chosen_phases(a) -> list[Phase]:
    return [ph for ph in PHASES if ph.name in a.phases]


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    unit: str
    higher_is_better: bool = False


def step_metric(n: int) -> Metric:
    return Metric(f"steps-{n}", f"{n} at once, average", "s")


def ping_metric(clients: int) -> Metric:
    return Metric(f"ping-{clients}", f"/ping, {clients} clients keep-alive", "req/s", higher_is_better=True)


def ping_cpu_metric(clients: int) -> Metric:
    """The server's CPU time per /ping request: what a request costs the server, whatever the load generator's own pace
    (on 2 cores with the CPUs split, k6 saturates its core before the server does, and requests per second measure k6)."""
    return Metric(f"ping-cpu-{clients}", f"/ping, {clients} clients keep-alive, server CPU per request (JIT aside)", "µs")


STARTUP = Metric("startup", "startup to ready", "s")
PEAK_RSS = Metric("peak-rss", "peak RSS", "MB")


ALTERNATE = "alternate"  # in a plan: both variants started at once, /ping measured in alternating windows


def plan(targets, rounds: int, variants=VARIANTS, alternate: bool = False):
    """(round, target, variant) in run order: round-major, the variants' order alternating every round; with
    `alternate`, each target's two starts followed by (round, target, ALTERNATE), the start of both at once."""
    out = []
    for r in range(1, rounds + 1):
        for t in targets:
            out += [(r, t, v) for v in round_order(r, variants)]
            if alternate:
                out.append((r, t, ALTERNATE))
    return out


def round_order(round_: int, variants=VARIANTS) -> tuple:
    """The variants in the order they go in `round_`: as given in odd rounds, reversed in even ones."""
    return tuple(variants) if round_ % 2 else tuple(reversed(variants))


# ---------------------------------------------------------------- alternating windows (pure)

def abba(pairs: int, first: str, second: str) -> list[str]:
    """The variant of each measured window: A B B A A B B A ..., `pairs` windows of each. A drift of the machine that
    is steady over two pairs touches A and B alike; in A B A B, B would always come a window later than its A."""
    return [v for i in range(pairs) for v in ((first, second) if i % 2 == 0 else (second, first))]


def schedule(windows: int, first: str, second: str, together: bool) -> list[tuple[int, tuple[str, ...]]]:
    """The measured windows in order, each as (its pair, the variants under load in it): with `together` both variants
    in every window, a window a pair; otherwise one variant a window in ABBA order (abba), two windows a pair."""
    if together:
        return [(i, (first, second)) for i in range(1, windows + 1)]
    return [(pair_of(i), (variant,)) for i, variant in enumerate(abba(windows, first, second), 1)]


def pair_of(window: int) -> int:
    """The pair a window (numbered from 1) belongs to: windows 1 and 2 are pair 1, 3 and 4 pair 2, ..."""
    return (window + 1) // 2


def _ratio(a, b):
    return a / b if a is not None and b else None


def pair_ratios(windows: list[dict], variants=VARIANTS) -> list[dict]:
    """Per pair of adjacent windows (one of each variant): the first variant / the second of requests per second
    ("rate") and of CPU time per request ("cpu"), None where a window has no figure (k6 failed)."""
    by_pair: dict[int, dict] = {}
    for w in windows:
        by_pair.setdefault(w["pair"], {})[w["variant"]] = w
    out = []
    for pair, of in sorted(by_pair.items()):
        a, b = of.get(variants[0]) or {}, of.get(variants[1]) or {}
        out.append({"pair": pair, "rate": _ratio(a.get("requests_per_s"), b.get("requests_per_s")),
                    "cpu": _ratio(a.get("cpu_us_per_request"), b.get("cpu_us_per_request"))})
    return out


def spread(values) -> dict | None:
    """The median of `values` (Nones left out), its quartiles (statistics.quantiles, inclusive: the lowest and highest
    value are the 0 and 100 % points), the lowest and the highest; None when there is none."""
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else values * 3
    return {"n": len(values), "median": statistics.median(values), "q1": q1, "q3": q3, "min": values[0],
            "max": values[-1]}


def window_median(windows: list[dict], variant: str, key: str):
    """The median of one variant's windows' figure (requests_per_s or cpu_us_per_request), None when none has it."""
    return _median(w.get(key) for w in windows if w["variant"] == variant)


def alternate_rows(windows: list[dict], variants=VARIANTS) -> list[dict]:
    """The alternating windows of a run (each with round, boot, server, phase, clients, pair, variant and its figures)
    summed up per (boot, server, phase, clients): a row per round and one for every round ("all"), each with the
    per-pair ratios and their spread, for rate and cpu; the "all" row also with the spread of the rounds' medians."""
    groups: dict[tuple, dict[int, list]] = {}
    for w in windows:
        groups.setdefault((w["boot"], w["server"], w["phase"], w["clients"]), {}).setdefault(w["round"], []).append(w)
    out = []
    for (boot, server, phase, clients), rounds in groups.items():
        key = {"boot": boot, "server": server, "phase": phase, "clients": clients}
        every = {"rate": [], "cpu": []}
        medians = {"rate": [], "cpu": []}
        for round_, ws in sorted(rounds.items()):
            pairs = pair_ratios(ws, variants)
            row = {**key, "round": round_, "pairs": pairs}
            for measure in ("rate", "cpu"):
                ratios = [p[measure] for p in pairs]
                row[measure] = spread(ratios)
                every[measure] += ratios
                if row[measure]:
                    medians[measure].append(row[measure]["median"])
            out.append(row)
        if len(rounds) > 1:
            out.append({**key, "round": "all", "pairs": None, **{m: spread(every[m]) for m in every},
                        "round_medians": {m: spread(medians[m]) for m in medians}})
    return out


def variant_args(variant: str, model: str, jar: Path, baseline_args: tuple[str, ...] = ()) -> list[str]:
    """The starter and its baseline build run alike, the baseline with --baseline-args added; plain without the
    starter."""
    if variant == "starter":
        return [f"--app.threads.model={model}"]
    if variant == BASELINE:
        return [f"--app.threads.model={model}", *baseline_args]
    return [f"--spring.threads.virtual.enabled={'true' if model == 'virtual' else 'false'}",
            f"--spring.autoconfigure.exclude={','.join(plain_exclusions(jar))}",
            f"--management.endpoints.web.exposure.include={','.join(plain_exposure(jar))}"]


def variant_jar(target: Target, variant: str, baseline: Path | None) -> Path:
    """The baseline's jar from its checkout; the starter's and plain's from this one."""
    return target.jar_in(baseline) if variant == BASELINE else target.jar


# ---------------------------------------------------------------- aggregation (pure)

def aggregate(measurements: list[dict], variants=VARIANTS) -> list[dict]:
    """One row per (boot, server, phase, metric): medians of each variant, starter / plain (or baseline) of the
    medians, the range of the per-round ratios, and the verdict against the goal."""
    keyed: dict[tuple, dict] = {}
    for m in measurements:
        row = keyed.setdefault((m["boot"], m["server"], m["phase"], m["metric"]), {
            "boot": m["boot"], "server": m["server"], "phase": m["phase"], "metric": m["metric"], "label": m["label"],
            "unit": m["unit"], "higher_is_better": m["higher_is_better"], "values": {v: {} for v in variants},
            "notes": {v: [] for v in variants}})
        if m["value"] is None:
            row["notes"][m["variant"]].append(f"round {m['round']}: {m['note']}")
        row["values"][m["variant"]].setdefault(m["round"], []).append(m["value"])
    return [finish_row(row, variants) for row in keyed.values()]


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def finish_row(row: dict, variants=VARIANTS) -> dict:
    versus = variants[1]
    per_round = {v: {r: _median(vals) for r, vals in row["values"][v].items()} for v in variants}
    starter, other = (_median(per_round[v].values()) for v in variants)
    ratios = [per_round["starter"][r] / per_round[versus][r] for r in per_round["starter"]
              if per_round["starter"][r] is not None and per_round[versus].get(r)]
    ratio = starter / other if starter is not None and other else None
    failed = {v: sum(1 for vals in row["values"][v].values() if any(x is None for x in vals)) for v in variants}
    row.update({"starter": starter, versus: other}, ratio=ratio, ratio_min=min(ratios) if ratios else None,
               ratio_max=max(ratios) if ratios else None, rounds=len(ratios), failed=failed,
               verdict=verdict(ratio, ratios, row["higher_is_better"], failed))
    del row["values"]
    return row


def verdict(ratio, ratios, higher_is_better: bool, failed: dict) -> str:
    """'meets' (the goal), 'noise' (worse than the goal by less than NOISE, or not in every round), 'worse' (beyond
    NOISE in every round), or who failed to answer (`failed`: the rounds each variant failed in, the starter first)."""
    (_, starter_failed), (versus, versus_failed) = failed.items()
    if starter_failed and not versus_failed:
        return "starter failed"
    if versus_failed and not starter_failed:
        return f"{versus} failed"
    if ratio is None:
        return "both failed" if starter_failed else "-"
    cost = 1 / ratio if higher_is_better else ratio
    costs = [1 / r if higher_is_better else r for r in ratios]
    if cost <= RATIO_GOAL:
        return "meets"
    if cost > RATIO_GOAL + NOISE and all(c > RATIO_GOAL for c in costs):
        return "worse"
    return "noise"


def paired(rows: list[dict], alternates: list[dict]) -> list[dict]:
    """`rows` (aggregate's) with each /ping row that was measured in alternating windows (alternates: alternate_rows)
    judged on its pairs: starter / the other is the median of every pair's ratio of every round, *per round* the range
    of the rounds' medians, the verdict on those. The ratio of each variant's median window would throw the pairing
    away: on the same jar against itself (20 pairs, 2 rounds, a build beside it) it said 'worse' for requests per
    second at 0.97 where the pairs' median was 0.985."""
    measures = {}
    for alt in alternates:
        for metric, measure in ((ping_metric(alt["clients"]), "rate"), (ping_cpu_metric(alt["clients"]), "cpu")):
            group = measures.setdefault((alt["boot"], alt["server"], alt["phase"], metric.key), {"rounds": []})
            if alt["round"] == "all":
                group["all"] = alt[measure]
            else:
                group["rounds"].append(alt[measure])
    for row in rows:
        group = measures.get((row["boot"], row["server"], row["phase"], row["metric"]))
        if not group:
            continue
        every = group.get("all") or (group["rounds"][0] if len(group["rounds"]) == 1 else None)
        medians = [sp["median"] for sp in group["rounds"] if sp]
        if every is None or row["ratio"] is None:
            continue
        row.update(ratio=every["median"], ratio_min=min(medians), ratio_max=max(medians), rounds=len(medians),
                   verdict=verdict(every["median"], medians, row["higher_is_better"], row["failed"]))
    return rows


def floor_rows(rows: list[dict]) -> list[dict]:
    """Each servlet server's 2700 step against sample-reactive's (plain WebFlux: the floor) on the same line and run."""
    out = []
    by_key = {(r["boot"], r["server"], r["phase"], r["metric"]): r for r in rows}
    for r in rows:
        if r["server"] == FLOOR_SERVER or r["phase"] != "virtual" or r["metric"] != "steps-2700":
            continue
        floor = by_key.get((r["boot"], FLOOR_SERVER, "virtual", "steps-2700"))
        if not floor or not floor["plain"]:
            continue
        for variant in VARIANTS:
            value = r[variant]
            above = value / floor["plain"] if value else None
            out.append({"boot": r["boot"], "server": r["server"], "variant": variant, "value": value,
                        "floor": floor["plain"], "ratio": above,
                        "verdict": "-" if above is None else "meets" if above <= 1 + FLOOR_TOLERANCE else "above"})
    return out


def _f(v, digits=2):
    return "—" if v is None else f"{v:.{digits}f}"


def _value(v, unit: str) -> str:
    """Seconds to the hundredth, microseconds to the tenth; requests per second and megabytes whole."""
    return _f(v, 2 if unit == "s" else 1 if unit == "µs" else 0)


def _line(boot: str) -> str:
    return "3.5" if boot == "3" else boot


def versus_of(meta: dict) -> str:
    """What the run compared the starter with (runs from before --baseline: plain)."""
    return meta.get("versus", PLAIN)


def title(meta: dict) -> str:
    if versus_of(meta) == BASELINE:
        args = meta["baseline"].get("args")
        return (f"The starter against its baseline build ({meta['baseline']['rev']}, {meta['baseline']['root']}"
                + (f", with {shlex.join(args)}" if args else "") + ")")
    return "The starter versus plain Spring Boot"


def markdown(rows: list[dict], floors: list[dict], meta: dict) -> str:
    versus = versus_of(meta)
    lines = [f"Machine: {meta.get('machine', '?')}; {meta.get('java', '?')}; k6 {meta.get('k6_version', '?')} on the "
             f"same host, {meta.get('pinning') or 'the server and k6 sharing every CPU (not pinned)'}. "
             f"Rounds: {meta.get('rounds', '?')}."
             + (" A full collection (`jcmd GC.run`) before each step." if meta.get("collect_before_steps") else ""), ""]
    if versus == BASELINE:
        baseline = meta["baseline"]
        lines += [f"starter: the sample jars of this checkout ({meta.get('starter_rev', '?')}); baseline: the same "
                  f"jars built in {baseline['root']} ({baseline['rev']}), run alike"
                  + (f", the baseline with {shlex.join(baseline['args'])} added" if baseline.get("args") else "")
                  + ". Not plain Spring Boot.", ""]
    if meta.get("alternate"):
        lines += [alternate_method(meta), ""]
    lines += [f"Medians over the rounds; starter / {versus} is the ratio of the medians, *per round* the range of the "
              "ratios of the starts that ran side by side. Goal: ≤ 1.00 for times and memory, ≥ 1.00 for requests per "
              f"second; 'worse' means beyond {NOISE:.0%} the wrong way in every round, 'noise' worse than the goal but "
              "not so.",
              "", f"| Boot | server | model, heap | measure | starter | {versus} | starter / {versus} | per round "
              "| verdict |",
              "|---|---|---|---|---:|---:|---:|---|---|"]
    phase_label = {"virtual": "virtual", "virtual-256m": "virtual, 256 MB heap", "platform": "platform"}
    failures = []
    for r in rows:
        where = f"{_line(r['boot'])} {r['server']} {phase_label.get(r['phase'], r['phase'])}, {r['label']}"
        failures += [f"- {where}: {v}, {n}" for v, notes in r["notes"].items() for n in notes]
        ratio = "—" if r["ratio"] is None else f"**{_f(r['ratio'])}**"
        per_round = "—" if r["ratio_min"] is None else f"{_f(r['ratio_min'])}–{_f(r['ratio_max'])}"
        lines.append(f"| {_line(r['boot'])} | {r['server']} | {phase_label.get(r['phase'], r['phase'])} "
                     f"| {r['label']} ({r['unit']}) | {_value(r['starter'], r['unit'])} | {_value(r[versus], r['unit'])} "
                     f"| {ratio} | {per_round} | {r['verdict']} |")
    if failures:
        lines += ["", "Not answered in full:", "", *failures]
    if floors:
        lines += ["", "Each servlet server at 2700 simultaneous requests against the WebFlux floor (plain "
                  "sample-reactive, the same line and run); goal ≤ 1.05.", "",
                  "| Boot | server | variant | average s | floor s | ratio | verdict |", "|---|---|---|---:|---:|---:|---|"]
        for f in floors:
            lines.append(f"| {_line(f['boot'])} | {f['server']} | {f['variant']} | {_f(f['value'])} | {_f(f['floor'])} "
                         f"| **{_f(f['ratio'])}** | {f['verdict']} |")
    return "\n".join(lines) + "\n"


def window_kind(together: bool) -> str:
    return "windows with both under load" if together else "alternating windows"


def alternate_method(meta: dict) -> str:
    """How /ping was measured with --alternate or --together, for results.md."""
    alt, versus = meta["alternate"], versus_of(meta)
    started = (f"per round, both variants started at once and alive together (two JVMs, ports of their own, the same "
               f"JVM options, {'both on the server CPUs above' if meta.get('pinning') else 'neither pinned'}), warmed "
               f"up in turn, then ")
    if alt.get("together"):
        how = (f"/ping with both under load at once (--together): {started}{alt['windows']} windows of "
               f"{alt['seconds']} s, each loading both by two k6 runs side by side. In the table, each variant's /ping "
               f"figure is the median of its windows, but starter / {versus} is the median of the ratios of every "
               f"window (one figure of each) and *per round* the range of the rounds' medians. The requests per second "
               f"are k6's share of its CPUs rather than the servers' limit: the CPU time per request tells the two "
               f"apart")
    else:
        how = (f"/ping in alternating windows (--alternate): {started}{alt['windows']} windows of {alt['seconds']} s "
               f"of each, {2 * alt['windows']} in all, in ABBA order (A B B A ..., A the variant that went first in "
               f"the round), only one under load at a time. In the table, each variant's /ping figure is the median of "
               f"its windows, but starter / {versus} is the median of the ratios of every pair of adjacent windows "
               f"(one of each) and *per round* the range of the rounds' medians")
    return (f"{how}: see 'Alternating windows'. Startup, steps and peak RSS (without /ping) come from each variant's "
            f"own start.")


def alternate_markdown(rows: list[dict], meta: dict) -> str:
    """The section of results.md on the alternating windows: per round and over every round, the median, interquartile
    range and range of starter / the other per pair, of requests per second and of CPU time per request; then every
    pair's ratios."""
    versus = versus_of(meta)
    pair = ("window (both under load at once)" if meta["alternate"].get("together")
            else "pair of adjacent windows (one window of each, ABBA)")
    lines = ["", "### Alternating windows", "",
             f"starter / {versus} per {pair}, of requests per second and of "
             "the server's CPU time per request (JIT aside): the median over the pairs, the interquartile range (IQR) "
             "and the lowest–highest; 'all': every pair of every round. 1.00 = the same.", "",
             "| Boot | server | model | clients | round | pairs | req/s: median | IQR | min–max "
             "| CPU µs/request: median | IQR | min–max |",
             "|---|---|---|---:|---|---:|---:|---|---|---:|---|---|"]
    detail, medians = [], []

    def cells(sp):
        if not sp:
            return ["—", "—", "—"]
        return [f"**{sp['median']:.3f}**", f"{sp['q1']:.3f}–{sp['q3']:.3f}", f"{sp['min']:.3f}–{sp['max']:.3f}"]

    for r in rows:
        where = f"{_line(r['boot'])} {r['server']} {r['phase']}, {r['clients']} clients"
        n = max((r[m]["n"] for m in ("rate", "cpu") if r[m]), default=0)
        lines.append(f"| {_line(r['boot'])} | {r['server']} | {r['phase']} | {r['clients']} | {r['round']} | {n} | "
                     + " | ".join(cells(r["rate"]) + cells(r["cpu"])) + " |")
        if r["pairs"] is not None:
            detail.append(f"- {where}, round {r['round']}: req/s "
                          + " ".join(_f(p["rate"], 3) for p in r["pairs"]) + "; CPU per request "
                          + " ".join(_f(p["cpu"], 3) for p in r["pairs"]))
        else:
            rm = r["round_medians"]
            medians.append(f"- {where}: req/s {_range(rm['rate'])}, CPU per request {_range(rm['cpu'])} "
                           f"({rm['rate']['n'] if rm['rate'] else 0} rounds)")
    if medians:
        lines += ["", "The rounds' medians, lowest–highest:", "", *medians]
    lines += ["", "Every pair's ratio, in the order measured:", "", *detail]
    return "\n".join(lines) + "\n"


def _range(sp) -> str:
    return "—" if not sp else f"{sp['min']:.3f}–{sp['max']:.3f}"


ALTERNATE_COLUMNS = ["round", "boot", "server", "phase", "clients", "window", "pair", "variant", "at_s", "requests_per_s",
                     "cpu_us_per_request", "idle_cpu_ms", "k6_exit", "error_rate"]


def result_columns(versus: str = PLAIN) -> list[str]:
    return ["boot", "server", "phase", "metric", "unit", "higher_is_better", "starter", versus, "ratio", "ratio_min",
            "ratio_max", "rounds", "verdict"]


RESULT_COLUMNS = result_columns()
MEASUREMENT_COLUMNS = ["round", "boot", "server", "variant", "phase", "metric", "unit", "value", "note"]


def to_csv(records: list[dict], columns: list[str]) -> str:
    lines = [",".join(columns)]
    for rec in records:
        lines.append(",".join(_csv(rec.get(c)) for c in columns))
    return "\n".join(lines) + "\n"


def _csv(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.4f}"
    text = str(v)
    return f'"{text}"' if "," in text else text


def html(rows: list[dict], floors: list[dict], meta: dict, md: str | None = None) -> str:
    """The page: the ratios as charts, then `md` (default: markdown() of the rows) as HTML."""
    versus = versus_of(meta)
    charts = []
    for phase in PHASES:
        chosen = [r for r in rows if r["phase"] == phase.name and r["ratio"] is not None]
        if not chosen:
            continue
        measures = list(dict.fromkeys(r["label"] for r in chosen))
        targets = list(dict.fromkeys(f"{_line(r['boot'])} {r['server']}" for r in chosen))
        series = {t: [next((r["ratio"] for r in chosen if r["label"] == m and f"{_line(r['boot'])} {r['server']}" == t),
                           None) for m in measures] for t in targets}
        charts.append(report.svg_grouped_bars(f"ratio-{phase.name}", f"starter / {versus}, {phase.name} (1 = the same)",
                                              measures, series, f"starter / {versus}"))
    body = report.markdown_tables_to_html(md if md is not None else markdown(rows, floors, meta))
    heading = report._esc(f"{title(meta)} {meta.get('timestamp', '')}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{heading}</title><style>body{{font-family:sans-serif;margin:24px;max-width:1100px}}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}"
            "svg.chart{display:block;margin:12px 0 24px}</style></head><body>"
            f"<h1>{heading}</h1>"
            f"<p>Command: <code>{report._esc(meta.get('command', ''))}</code></p>"
            + "\n".join(charts) + body + "</body></html>\n")


def write_results(root: Path, measurements: list[dict], meta: dict, windows: list[dict] = ()):
    """Every output file of a run from what it measured so far; `windows`: the alternating windows (--alternate)."""
    versus = versus_of(meta)
    rows = aggregate(measurements, ("starter", versus))
    alternates = alternate_rows(windows, ("starter", versus)) if windows else []
    rows = paired(rows, alternates)
    floors = floor_rows(rows) if versus == PLAIN else []  # the floor is plain WebFlux: no yardstick between two builds
    md = markdown(rows, floors, meta)
    if windows:
        md += alternate_markdown(alternates, meta)
        (root / "alternating.csv").write_text(to_csv(windows, ALTERNATE_COLUMNS))
    (root / "measurements.csv").write_text(to_csv(measurements, MEASUREMENT_COLUMNS))
    (root / "results.csv").write_text(to_csv(rows, result_columns(versus)))
    (root / "results.md").write_text(f"# {title(meta)}, {meta['timestamp']}\n\n"
                                     f"Command: `{meta['command']}`\n\n" + md)
    (root / "report.html").write_text(html(rows, floors, meta, md))
    (root / "meta.json").write_text(json.dumps(meta, indent=2, default=str))


# ---------------------------------------------------------------- running

def log(msg: str):
    print(f"[versus-plain {time.strftime('%H:%M:%S')}] {msg}", flush=True)


class Runner:
    def __init__(self, a, k6: str, root: Path):
        self.a, self.k6, self.root = a, k6, root
        self.measurements: list[dict] = []
        self.windows: list[dict] = []  # the alternating windows (--alternate), every round's

    def record(self, round_: int, target: Target, variant: str, phase: Phase, metric: Metric, value, note: str = ""):
        self.measurements.append({"round": round_, "boot": target.boot, "server": target.server, "variant": variant,
                                  "phase": phase.name, "metric": metric.key, "label": metric.label,
                                  "unit": metric.unit, "higher_is_better": metric.higher_is_better,
                                  "value": value, "note": note})

    def run(self, round_: int, target: Target, variant: str):
        for phase in chosen_phases(self.a):
            outdir = self.root / f"{round_}-boot{target.boot}-{target.server}-{variant}-{phase.name}"
            outdir.mkdir(parents=True)
            app = self.start(target, variant, phase, outdir)
            rec = lambda metric, value, note="": self.record(round_, target, variant, phase, metric, value, note)  # noqa: E731
            try:
                self.wait_ready(app)
                if phase.startup:
                    rec(STARTUP, toolkit.started_seconds(app.log_text()))
                if phase.steps:
                    self.steps(app, outdir, rec)
                if phase.ping and not self.a.alternate:
                    for clients in self.a.ping_clients:
                        self.ping(app, outdir, clients, rec)
                rec(PEAK_RSS, app.peak_rss_mb())
            except RuntimeError as e:
                log(f"{outdir.name}: {e}")
                rec(STARTUP if phase.startup else PEAK_RSS, None, str(e))
            finally:
                if not app.stop():
                    log(f"{outdir.name}: did not stop within 30 s of SIGTERM; killed")

    def start(self, target: Target, variant: str, phase: Phase, outdir: Path) -> toolkit.App:
        """A variant's JVM for a phase, its log and working directory `outdir`, on the server CPUs when pinned."""
        jar = variant_jar(target, variant, self.a.baseline)
        pinning = self.a.pinning
        command = [toolkit.java(), *(pinning.jvm_options() if pinning else ()), *phase.jvm, "-jar", str(jar)]
        return toolkit.App(command, variant_args(variant, phase.model, jar, self.a.baseline_args), outdir / "app.log",
                           cwd=outdir,
                           preexec_fn=pinning.server_preexec() if pinning else None)

    def wait_ready(self, app: toolkit.App):
        """Until the app answers its health endpoint (RuntimeError past --start-timeout), then its JIT threads freed."""
        app.wait_http("/actuator/health", self.a.start_timeout)
        if self.a.pinning:
            self.a.pinning.free_jit_threads(app.pid)

    def alternate(self, round_: int, target: Target):
        """Per /ping phase, both variants started at once (the one that went first in the round first), /ping measured
        in alternating windows at each client count in turn (ping_alternating), both stopped. Their startup is not
        recorded here (two JVMs starting on the same CPUs), nor their peak RSS: each variant's own start (run) has
        them."""
        order = round_order(round_, self.a.variants)
        for phase in [ph for ph in chosen_phases(self.a) if ph.ping]:
            outdir = self.root / f"{round_}-boot{target.boot}-{target.server}-{ALTERNATE}-{phase.name}"
            apps, done = {}, set()
            rec = lambda variant, metric, value, note="": self.record(  # noqa: E731
                round_, target, variant, phase, metric, value, note)
            try:
                for variant in order:
                    (outdir / variant).mkdir(parents=True)
                    apps[variant] = self.start(target, variant, phase, outdir / variant)
                for app in apps.values():
                    self.wait_ready(app)
                for clients in self.a.ping_clients:
                    where = {"round": round_, "boot": target.boot, "server": target.server, "phase": phase.name,
                             "clients": clients}
                    self.ping_alternating(apps, order, outdir, clients, where, rec)
                    done.add(clients)
            except RuntimeError as e:
                log(f"{outdir.name}: {e}")
                for clients in self.a.ping_clients:
                    if clients not in done:
                        for variant in order:
                            rec(variant, ping_metric(clients), None, str(e))
                            rec(variant, ping_cpu_metric(clients), None, str(e))
            finally:
                for variant, app in apps.items():
                    if not app.stop():
                        log(f"{outdir.name}: {variant} did not stop within 30 s of SIGTERM; killed")

    def ping_alternating(self, apps: dict, order: tuple, outdir: Path, clients: int, where: dict, rec):
        """Both variants warmed up in turn (warm_up_in_turn), then --alternate-windows windows of each in ABBA order
        (abba), one variant under load at a time, or with --together both under load in each window (schedule); each
        window's rate, the loaded server's CPU time per request (JIT aside) and the idle one's whole CPU time meanwhile,
        its JIT compiler's too (what it takes from the CPUs while the other is measured), go to
        alternate-<clients>-windows.csv as they come. Recorded per variant: the median of its windows."""
        warmed = self.warm_up_in_turn({v: (app, outdir / v) for v, app in apps.items()}, clients)
        windows, t0 = [], time.monotonic()
        for i, (pair, loaded) in enumerate(schedule(self.a.alternate_windows, *order, self.a.together), 1):
            if not all(a.alive() for a in apps.values()):
                raise RuntimeError(f"a JVM exited during the alternating windows (see {outdir})")
            idle = next((a for v, a in apps.items() if v not in loaded), None)  # none with --together
            at, idle_before = time.monotonic() - t0, idle and toolkit.process_cpu_seconds(idle.pid)
            with ThreadPoolExecutor(len(loaded)) as k6_runs:  # together: both k6 runs side by side
                results = list(k6_runs.map(lambda v: self.throughput(
                    apps[v], outdir / v, clients, self.a.alternate_seconds, f"{ALTERNATE}-{clients}-{i:02d}"), loaded))
            idle_after = idle and toolkit.process_cpu_seconds(idle.pid)
            idle_ms = None if idle_before is None or idle_after is None else (idle_after - idle_before) * 1e3
            for variant, (rc, row, per_request) in zip(loaded, results):
                ok = rc == 0 and bool(row.get("requests_per_s"))
                windows.append({**where, "window": i, "pair": pair, "variant": variant, "at_s": round(at, 1),
                                "requests_per_s": row.get("requests_per_s") if ok else None,
                                "cpu_us_per_request": per_request if ok else None, "idle_cpu_ms": idle_ms,
                                "k6_exit": rc, "error_rate": row.get("error_rate")})
                self.windows.append(windows[-1])  # a run stopped later still reports the windows measured so far
            (outdir / f"{ALTERNATE}-{clients}-windows.csv").write_text(to_csv(windows, ALTERNATE_COLUMNS))
        for variant in order:
            rate, cpu = (window_median(windows, variant, k) for k in ("requests_per_s", "cpu_us_per_request"))
            n = sum(1 for w in windows if w["variant"] == variant and w["requests_per_s"] is not None)
            note = (f"median of {n} of {self.a.alternate_windows} {window_kind(self.a.together)} of "
                    f"{self.a.alternate_seconds} s, "
                    f"after {warmed[variant]} s of warm-up")
            rec(variant, ping_metric(clients), rate, note if rate is not None else f"no window answered: {note}")
            rec(variant, ping_cpu_metric(clients), cpu, note if cpu is not None else f"no window answered: {note}")
        for r in alternate_rows(windows, self.a.variants):
            log(f"{outdir.name}: /ping {clients} clients, {r['rate']['n'] if r['rate'] else 0} pairs, starter / "
                f"{self.a.versus}: req/s median {_f(r['rate'] and r['rate']['median'], 3)} "
                f"({_range(r['rate'])}), CPU per request median {_f(r['cpu'] and r['cpu']['median'], 3)} "
                f"({_range(r['cpu'])})")
        time.sleep(self.a.pause)

    def steps(self, app: toolkit.App, outdir: Path, rec):
        for i, n in enumerate(self.a.steps):
            name = f"steps-{n}"
            if self.a.collect_before_steps and not app.collect_garbage():
                log(f"{outdir.name}: jcmd GC.run did not answer before {n} at once")
            rc = bench.run_k6(self.k6, "steps", app.base, {"STEPS": n, "KEEP_ALIVE": "false", "SUMMARY_NAME": name,
                                                           "STEP_WINDOW": self.a.step_window},
                              outdir, self.a.step_window + 60, dashboard=False)
            rows = report.parse_steps_summary(_read_json(outdir / f"{name}-summary.json") or {})
            row = rows[0] if rows else {}
            answered = round((row.get("success_pct") or 0) * n / 100)
            if answered == n:
                rec(step_metric(n), row["average_s"])
                log(f"{outdir.name}: {n} at once: average {row['average_s']:.3f} s")
            else:
                note = f"{answered} of {n} answered (k6 exit {rc})"
                rec(step_metric(n), None, note)
                log(f"{outdir.name}: {n} at once: {note}; larger steps skipped")
                for skipped in self.a.steps[i + 1:]:
                    rec(step_metric(skipped), None, f"not run: {note} at {n}")
                return
            time.sleep(self.a.pause)

    def throughput(self, app: toolkit.App, outdir: Path, clients: int, seconds: int, name: str):
        """/ping at `clients` keep-alive clients for `seconds` (load/k6/throughput.js, no warm-up of its own): k6's exit
        code, the summary's row and the server's CPU time per request over the run (cpu_per_request_us)."""
        cpu_before = app.cpu_seconds()
        rc = bench.run_k6(self.k6, "throughput", app.base, {"VUS": clients, "DURATION": seconds, "WARMUP": 0,
                                                            "SUMMARY_NAME": name}, outdir, seconds + 60, dashboard=False)
        row = (_read_json(outdir / f"{name}-summary.json") or {}).get("row") or {}
        return rc, row, cpu_per_request_us(cpu_before, app.cpu_seconds(), row.get("requests"))

    def ping(self, app: toolkit.App, outdir: Path, clients: int, rec):
        warmed = self.warm_up(app, outdir, clients)
        rc, row, per_request = self.throughput(app, outdir, clients, self.a.ping_seconds, f"ping-{clients}")
        if rc == 0 and row.get("requests_per_s"):
            rec(ping_metric(clients), row["requests_per_s"], f"after {warmed} s of warm-up")
            rec(ping_cpu_metric(clients), per_request)
            log(f"{outdir.name}: /ping {clients} clients: {row['requests_per_s']:.0f} req/s, "
                f"{_f(per_request, 1)} µs CPU a request ({warmed} s warm-up)")
        else:
            note = f"k6 exit {rc}, error rate {row.get('error_rate')}"
            rec(ping_metric(clients), None, note)
            rec(ping_cpu_metric(clients), None, note)
        time.sleep(self.a.pause)

    def warm_up(self, app: toolkit.App, outdir: Path, clients: int) -> int:
        """/ping in windows of --ping-window seconds until the rate stops climbing (see settled), at most
        --ping-warmup seconds; the seconds it took."""
        return self.warm_up_in_turn({"": (app, outdir)}, clients)[""]

    def warm_up_in_turn(self, starts: dict, clients: int) -> dict:
        """warm_up of several apps ({name: (app, outdir)}) at once, one window of each in turn, those that have
        settled left out: each is warmed as the others are, under the same drift; {name: the seconds it took}."""
        rates = {name: [] for name in starts}
        windows = {name: [] for name in starts}
        while True:
            due = [name for name in starts if len(rates[name]) * self.a.ping_window < self.a.ping_warmup
                   and not settled(rates[name], self.a.ping_settle)]
            if not due:
                break
            for name in due:
                app, outdir = starts[name]
                _, row, per_request = self.throughput(app, outdir, clients, self.a.ping_window,
                                                      f"warmup-{clients}-{len(rates[name]) + 1}")
                rates[name].append(row.get("requests_per_s") or 0)
                windows[name].append((rates[name][-1], per_request))
        for name, (_, outdir) in starts.items():
            write_windows(outdir / f"warmup-{clients}-windows.csv", windows[name])
        return {name: len(rates[name]) * self.a.ping_window for name in starts}


def write_windows(path: Path, windows: list[tuple]):
    """The warm-up's windows, one line each: its requests per second and the server's CPU time per request, so that a
    start's own steadiness can be told from the spread between starts."""
    path.write_text("window,requests_per_s,cpu_us_per_request\n" + "".join(
        f"{i},{_csv(rate)},{_csv(cpu)}\n" for i, (rate, cpu) in enumerate(windows, 1)))


def cpu_per_request_us(cpu_before: float | None, cpu_after: float | None, requests) -> float | None:
    """Microseconds of the server's CPU time per request over a k6 run (its setup's one request aside), or None."""
    if cpu_before is None or cpu_after is None or not requests:
        return None
    return (cpu_after - cpu_before) / requests * 1e6


def settled(rates: list[float], tolerance: float) -> bool:
    """Whether /ping has warmed up: its rate in each of the last two windows is no more than `tolerance` (a fraction)
    above the window before. On these 2-core machines the rate climbs for 15 to 25 s after startup (the JIT compiling
    the request path while it competes with k6 and the server for the cores) and then moves by a few percent either
    way; a fixed 10-s warm-up measured the climb, so each variant was judged by how fast its JIT got there. One flat
    window is not enough: Boot 4 Netty on virtual threads measured 11777, 15259, 15501, 18168, 19892 req/s in
    successive windows, flat once and then climbing again."""
    return (len(rates) >= 3 and all(before > 0 and after <= before * (1 + tolerance)
                                    for before, after in zip(rates[-3:-1], rates[-2:])))


def _read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def estimate_minutes(a, targets) -> float:
    per_start = 8 + a.pause
    steps = len(a.steps) * (8 + a.pause)
    # the first client count warms up the most (about half the longest); the later ones settle in three windows;
    # each k6 run takes about 2 s more than its load
    windows = max(a.ping_warmup / 2 // a.ping_window, 3) + (len(a.ping_clients) - 1) * 3
    warm = windows * (a.ping_window + 2)
    ping = 0 if a.alternate else warm + len(a.ping_clients) * (a.ping_seconds + 2 + a.pause)
    per_variant = sum(per_start + (steps if ph.steps else 0) + (ping if ph.ping else 0) for ph in chosen_phases(a))
    # --alternate: per /ping phase, two starts at once on the same CPUs, both warmed up, the windows of both
    window_runs = 1 if a.together else 2  # together: both variants' k6 runs side by side
    both = (2 * (per_start + warm) + window_runs * len(a.ping_clients) * a.alternate_windows
            * (a.alternate_seconds + 2)) if a.alternate else 0
    per_pair = sum(both for ph in chosen_phases(a) if ph.ping)
    return a.rounds * len(targets) * (2 * per_variant + per_pair) / 60


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ints = lambda s: [int(x) for x in s.split(",") if x.strip()]  # noqa: E731
    words = lambda s: [x.strip() for x in s.split(",") if x.strip()]  # noqa: E731
    p.add_argument("--boots", type=words, default=["4", "3"], help="4 and/or 3 (Spring Boot 3.5), default both")
    p.add_argument("--servers", type=words, help="tomcat,jetty,undertow,netty (default: every server of each line)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--steps", type=ints, default=[100, 300, 900, 2700])
    p.add_argument("--step-window", type=int, default=60, help="seconds a step may take")
    p.add_argument("--ping-clients", type=ints, default=[16, 200])
    p.add_argument("--ping-seconds", type=int, default=10)
    p.add_argument("--ping-warmup", type=int, default=40,
                   help="the longest warm-up of /ping before the measured seconds (it ends once the rate settles)")
    p.add_argument("--ping-window", type=int, default=5, help="seconds of each warm-up window")
    p.add_argument("--ping-settle", type=float, default=0.05,
                   help="warmed up once two windows in a row are each at most this fraction above the one before")
    p.add_argument("--phases", type=words, default=PHASE_NAMES,
                   help="which of the starts to run: " + ", ".join(PHASE_NAMES) + " (default all)")
    p.add_argument("--pause", type=float, default=2.0, help="seconds between loads")
    p.add_argument("--start-timeout", type=float, default=120)
    p.add_argument("--out", default=str(toolkit.ROOT / "results"))
    p.add_argument("--baseline", type=Path, metavar="ROOT",
                   help="instead of plain Spring Boot, the same sample jars built in ROOT (another checkout), run as "
                        "the starter is: an A/B of two builds")
    p.add_argument("--baseline-args", type=shlex.split, default=[], metavar="ARGS",
                   help="with --baseline: arguments added to the baseline's command line, e.g. a feature turned off "
                        "(with --baseline . the same jar: what that feature costs)")
    p.add_argument("--no-pin", action="store_true",
                   help="let the server and k6 share every CPU (default: the server on CPUs of its own, toolkit.Pinning)")
    p.add_argument("--alternate", action="store_true",
                   help="/ping of both variants alive at once, in alternating windows (ABBA) after both have warmed "
                        "up, instead of each start measured alone (see above)")
    p.add_argument("--together", action="store_true",
                   help="as --alternate, but each window loads both variants at once (two k6 runs side by side), "
                        "so that both live through the same seconds of the machine (see above)")
    p.add_argument("--alternate-windows", type=int, default=20, metavar="N",
                   help="with --alternate: the measured windows of each variant, so N pairs and 2N windows (20)")
    p.add_argument("--alternate-seconds", type=int, default=5, metavar="S",
                   help="with --alternate: the seconds of each window (5)")
    p.add_argument("--no-collect-before-steps", dest="collect_before_steps", action="store_false",
                   help="leave out the full collection (jcmd GC.run) made before each step (see above)")
    p.add_argument("--list", action="store_true", help="print the plan and exit")
    a = p.parse_args(argv)
    a.pinning = None if a.no_pin else toolkit.Pinning.split()
    a.alternate = a.alternate or a.together
    a.boots = ["3" if b in ("3", "3.5") else b for b in a.boots]
    for b in a.boots:
        if b not in SERVERS_BY_BOOT:
            p.error(f"unknown Boot line {b} (4, or 3 for Spring Boot 3.5)")
    known = sorted({s for servers in SERVERS_BY_BOOT.values() for s in servers})
    for s in a.servers or []:
        if s not in known:
            p.error(f"unknown server {s} (known: {', '.join(known)})")
    a.targets = [Target(b, s) for b in a.boots for s in SERVERS_BY_BOOT[b] if not a.servers or s in a.servers]
    if not a.targets:
        p.error("no server of the chosen lines was chosen (Undertow exists only on Boot 3.5: --boots 3)")
    if a.rounds < 1:
        p.error("--rounds must be at least 1")
    for name in a.phases:
        if name not in PHASE_NAMES:
            p.error(f"unknown phase {name} (known: {', '.join(PHASE_NAMES)})")
    if not a.phases:
        p.error(f"no start chosen (--phases: {', '.join(PHASE_NAMES)})")
    if a.alternate and not any(ph.ping for ph in chosen_phases(a)):
        p.error(f"--alternate measures /ping, which only these starts run: "
                f"{', '.join(ph.name for ph in PHASES if ph.ping)} (--phases)")
    if a.alternate_windows < 2 or a.alternate_seconds < 1:
        p.error("--alternate-windows must be at least 2 (pairs: a spread needs more than one) and "
                "--alternate-seconds at least 1")
    a.versus = BASELINE if a.baseline else PLAIN
    a.baseline_args = tuple(a.baseline_args)
    if a.baseline_args and not a.baseline:
        p.error("--baseline-args needs --baseline (plain Spring Boot runs without the starter, with nothing to add)")
    a.variants = ("starter", a.versus)
    if a.baseline:
        if "3" in a.boots:
            p.error("--baseline compares Boot 4 builds only (--boots 4): a Boot 3.5 sample jar takes the starter from "
                    "the local Maven repository, the same for both checkouts")
        a.baseline = a.baseline.resolve()
        a.baseline_rev = git_rev(a.baseline)
        if not a.baseline_rev:
            p.error(f"--baseline {a.baseline}: not a git checkout")
    return a


def git_rev(root: Path) -> str | None:
    """`git -C root rev-parse --short HEAD`, or None."""
    done = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def check_jars(a):
    """Stops the run before it starts when a jar is missing; for the baseline, with the commands that build them."""
    if a.baseline:
        missing = [t for t in a.targets if not t.jar_in(a.baseline).exists()]
        if missing:
            builds = dict.fromkeys(shlex.join(bench.build_command(t.app, t.server, t.boot)) for t in missing)
            raise SystemExit(f"missing baseline jars: {', '.join(str(t.jar_in(a.baseline)) for t in missing)}; "
                             f"build them there: cd {shlex.quote(str(a.baseline))} && {' && '.join(builds)}")
    missing = [str(t.jar) for t in a.targets if not t.jar.exists()]
    if missing:
        raise SystemExit("missing jars (build them first, docs/benchmarks.md): " + ", ".join(missing))


def describe_step(a, round_: int, variant: str) -> str:
    """A step of the plan in words: the variant, or for ALTERNATE both at once and their windows."""
    if variant != ALTERNATE:
        return variant
    first, second = round_order(round_, a.variants)
    if a.together:
        return (f"{first} and {second} at once, /ping in {a.alternate_windows} windows of {a.alternate_seconds} s "
                f"with both under load")
    return (f"{first} and {second} at once, /ping in {a.alternate_windows} x 2 alternating windows of "
            f"{a.alternate_seconds} s ({''.join('A' if v == first else 'B' for v in abba(2, first, second))}...)")


def main(argv=None) -> int:
    a = parse_args(argv)
    order = plan(a.targets, a.rounds, a.variants, a.alternate)
    if a.list:
        if a.baseline:
            print(f"starter: {toolkit.ROOT} at {git_rev(toolkit.ROOT)}; baseline: {a.baseline} at {a.baseline_rev} "
                  "(the same sample jars, run alike"
                  + (f", the baseline with {shlex.join(a.baseline_args)}" if a.baseline_args else "") + ")")
        for r, t, v in order:
            print(f"round {r}: {t.label}, {describe_step(a, r, v)}")
        print(f"about {estimate_minutes(a, a.targets):.0f} minutes")
        return 0
    check_jars(a)
    k6 = toolkit.k6()
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    root = Path(a.out) / f"versus-{a.versus}-{stamp}"
    root.mkdir(parents=True)
    meta = {"timestamp": stamp, "command": shlex.join(["load/versus_plain.py", *(argv if argv is not None else sys.argv[1:])]),
            **bench.machine_info(k6), "rounds": a.rounds, "load_before": os.getloadavg(),
            "targets": [t.label for t in a.targets], "versus": a.versus, "starter_rev": git_rev(toolkit.ROOT),
            "collect_before_steps": a.collect_before_steps}
    if a.baseline:
        meta["baseline"] = {"root": str(a.baseline), "rev": a.baseline_rev, "args": list(a.baseline_args)}
    if a.pinning:
        a.pinning.pin_this_process()
        meta["pinning"] = a.pinning.describe()
    if a.alternate:
        meta["alternate"] = {"windows": a.alternate_windows, "seconds": a.alternate_seconds, "together": a.together}
    log(f"{len(order)} steps of the plan, about {estimate_minutes(a, a.targets):.0f} minutes -> {root}")
    runner = Runner(a, k6, root)
    t0 = time.monotonic()
    for r, t, v in order:
        log(f"round {r}: {t.label}, {describe_step(a, r, v)}")
        if v == ALTERNATE:
            runner.alternate(r, t)
        else:
            runner.run(r, t, v)
        write_results(root, runner.measurements, meta, runner.windows)  # what ran so far survives an interrupted run
    meta.update(load_after=os.getloadavg(), duration_min=round((time.monotonic() - t0) / 60, 1))
    write_results(root, runner.measurements, meta, runner.windows)
    log(f"done in {meta['duration_min']} min: {root / 'results.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
