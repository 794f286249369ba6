#!/usr/bin/env python3
"""How fast can a cold burst drain when the first run time must be spent at a limit that is safe for heavy requests?

    load/burst_bound.py --jar sample-web/target/sample-web-tomcat.jar                  # 2000 at once, -Xmx256m, 5 rounds
    load/burst_bound.py --jar JAR --variants plain,bound-170,adaptive --rounds 3 --out target/bound
    load/burst_bound.py --jar JAR --baseline-jar ../before/JAR --variants adaptive,baseline   # this build against another

A burst's first requests show what a request holds only once they have run as long as requests run: a request may
allocate what it keeps at any time of its run, so until then nothing tells a light burst from a heavy one, and a
limit that is safe for requests of 1 MB must hold it. This script measures what that costs at best, beside plain
Spring Boot and the starter's default. Each run is a fresh start of the jar (`-Xmx<heap> -XX:+ExitOnOutOfMemoryError`,
a management port of its own, `--sample.greetings.delay=2s`), then `--clients` connections each send one
`GET /greetings` at once (asyncio, no keep-alive) and wait up to `--deadline` for the answer. Variants:

- plain: plain Spring Boot on virtual threads (the same jar, the starter's auto-configurations excluded, as
  load/versus_plain.py runs it);
- adaptive: the starter's default (`app.threads.model=virtual`, the adaptive admission);
- baseline: the same as adaptive, with the jar of `--baseline-jar` (another build of the starter: an A/B);
- fixed-N: the starter with `app.threads.virtual.max-concurrency=N` throughout (a limit sized for the pod);
- bound-N: the starter with `app.threads.virtual.max-concurrency=N` until the burst's first answer, then, at once,
  `POST /actuator/threadmodel {"model":"virtual","maxConcurrency":"10000"}` on the management port: an admission that
  knew, the moment the first request ended, that the whole rest fits. No algorithm that must stay safe for heavy
  requests can do better than the bound-N whose N is the most that it may let in before any request has ended.

Per run one JSON line (answers 200, the first and last answer's time, the average, when the limit was raised, whether
the JVM was alive after the burst and whether its log has an OutOfMemoryError); at the end a Markdown table of
medians per variant and the median of each round's ratio to plain. Variants alternate their order every round.
Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "load"))
import small_heap_burst  # noqa: E402
import toolkit  # noqa: E402
import versus_plain  # noqa: E402

RAISED_LIMIT = 10000


def variant_args(variant: str, jar: Path) -> list[str]:
    """The application's arguments for one variant (the management port's and the delay's apart)."""
    if variant == "plain":
        return [a for a in versus_plain.variant_args("plain", "virtual", jar)
                if not a.startswith("--management.endpoints.web.exposure.include=")] + [
            "--management.endpoints.web.exposure.include=health"]
    args = ["--app.threads.model=virtual", "--management.endpoints.web.exposure.include=health,threadmodel",
            "--management.endpoint.threadmodel.access=unrestricted"]
    if variant in ("adaptive", "baseline"):
        return args
    kind, _, limit = variant.partition("-")
    if kind in ("fixed", "bound") and limit.isdigit():
        return args + [f"--app.threads.virtual.max-concurrency={int(limit)}"]
    raise SystemExit(f"unknown variant {variant!r}: plain, adaptive, baseline, fixed-N or bound-N")


async def one_request(port: int, path: str, started: float, deadline: float, answered: list):
    """One GET on a new connection (small_heap_burst's); appends (seconds from the burst's start, status or the
    error's name)."""
    status, _ = await small_heap_burst.one_request(port, path, deadline)
    answered.append((time.monotonic() - started, status))


async def raise_at_first_answer(management: str, started: float, answered: list, deadline: float, raised: list):
    """Once the first answer is in, lifts the fixed limit through the endpoint (on a thread: urllib blocks)."""
    while not answered and time.monotonic() - started < deadline:
        await asyncio.sleep(0.005)
    body = {"model": "virtual", "maxConcurrency": str(RAISED_LIMIT)}
    status, _ = await asyncio.get_running_loop().run_in_executor(
        None, lambda: toolkit.http(management + "/actuator/threadmodel", body=body, method="POST"))
    raised.append((round(time.monotonic() - started, 2), status))


async def burst(port: int, management: str, clients: int, raise_limit: bool, deadline: float):
    answered, raised = [], []
    started = time.monotonic()
    tasks = [asyncio.create_task(one_request(port, "/greetings", started, deadline, answered))
             for _ in range(clients)]
    if raise_limit:
        tasks.append(asyncio.create_task(raise_at_first_answer(management, started, answered, deadline, raised)))
    await asyncio.gather(*tasks)
    return answered, raised


def run_once(a, variant: str, round_no: int, out: Path) -> dict:
    jar = Path(a.baseline_jar if variant == "baseline" else a.jar)
    management_port = toolkit.free_port()
    management = f"http://127.0.0.1:{management_port}"
    log_path = out / f"{round_no}-{variant}.log"
    app = toolkit.App([toolkit.java(), f"-Xmx{a.heap}", "-XX:+ExitOnOutOfMemoryError", "-jar", str(jar)],
                      [f"--management.server.port={management_port}", "--sample.greetings.delay=2s",
                       *variant_args(variant, jar)], log_path)
    try:
        app.wait_until(lambda: toolkit.http(management + "/actuator/health", timeout=2)[0] == 200, 180,
                       "a healthy application")
        answered, raised = asyncio.run(burst(app.port, management, a.clients, variant.startswith("bound-"),
                                             a.deadline))
        alive = app.alive()
    finally:
        app.stop(grace=30)
    times = [t for t, status in answered if status == 200]
    return {"round": round_no, "variant": variant, "clients": a.clients, "heap": a.heap, "ok": len(times),
            "first_s": round(min(times), 2) if times else None, "last_s": round(max(times), 2) if times else None,
            "average_s": round(statistics.fmean(times), 2) if times else None, "raised": raised, "alive": alive,
            "oom": "OutOfMemoryError" in log_path.read_text(errors="replace")}


def table(runs: list[dict]) -> str:
    """Medians per variant of the runs that answered every request, and the median of the per-round ratios of the
    last answer's time to plain's in the same round (rounds where both answered all)."""
    variants = list(dict.fromkeys(r["variant"] for r in runs))
    plain = {r["round"]: r["last_s"] for r in runs if r["variant"] == "plain" and r["ok"] == r["clients"]}
    lines = ["| variant | runs | answered all | OOM | last answer, median (s) | average, median (s) "
             "| last answer / plain's, per round | median ratio |", "|---|---:|---:|---:|---:|---:|---|---:|"]
    for variant in variants:
        mine = [r for r in runs if r["variant"] == variant]
        full = [r for r in mine if r["ok"] == r["clients"]]
        ratios = [r["last_s"] / plain[r["round"]] for r in full if r["round"] in plain and variant != "plain"]
        median = lambda key: f"{statistics.median(r[key] for r in full):.2f}" if full else "-"  # noqa: E731
        lines.append(f"| {variant} | {len(mine)} | {len(full)} | {sum(r['oom'] for r in mine)} | {median('last_s')} "
                     f"| {median('average_s')} | {' · '.join(f'{x:.2f}' for x in ratios) or '-'} "
                     f"| {f'{statistics.median(ratios):.2f}' if ratios else '-'} |")
    return "\n".join(lines)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[1].splitlines()[0])
    p.add_argument("--jar", default=str(ROOT / "sample-web/target/sample-web-tomcat.jar"))
    p.add_argument("--variants", default="plain,bound-40,bound-170,adaptive")
    p.add_argument("--baseline-jar", help="the jar the variant baseline runs (another build of the starter)")
    p.add_argument("--clients", type=int, default=2000)
    p.add_argument("--heap", default="256m")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--deadline", type=float, default=60, help="seconds any one request may take")
    p.add_argument("--out", default=str(ROOT / "target/burst-bound"))
    return p.parse_args(argv)


def main(argv=None) -> int:
    a = parse_args(argv)
    variants = a.variants.split(",")
    if "baseline" in variants and not a.baseline_jar:
        raise SystemExit("the variant baseline needs --baseline-jar")
    for variant in variants:
        variant_args(variant, Path(a.jar))  # an unknown variant stops here, before any run
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    toolkit.stop_on_sigterm()
    runs = []
    with open(out / "runs.jsonl", "w") as jsonl:
        for round_no in range(1, a.rounds + 1):
            for variant in versus_plain.round_order(round_no, variants):
                run = run_once(a, variant, round_no, out)
                runs.append(run)
                print(json.dumps(run), flush=True)
                jsonl.write(json.dumps(run) + "\n")
    result = f"{toolkit.machine_line()}\n\n{table(runs)}\n"
    (out / "results.md").write_text(result)
    print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
