#!/usr/bin/env python3
"""Fires a burst of simultaneous slow requests at sample-web on a small heap, on virtual threads with the
starter's defaults (the adaptive limit), and checks that the server survives it (issue 14: out of heap, a
virtual-thread server must not hang).

    load/small_heap_burst.py                          # CI: -Xmx128m, 3000 requests of 1 s at once
    load/small_heap_burst.py --heap=-Xmx256m --requests 2700 --out target/burst-256

Starts the jar (sample-web's Tomcat jar by default) on a free 127.0.0.1 port with the given heap and
--app.threads.model=virtual and nothing else, opens --requests connections at once (asyncio, no keep-alive),
sends GET /greetings (1 s) on each and reads every answer. Passes when:
- every request is answered 200, or 503 with Retry-After;
- the log has no OutOfMemoryError;
- /actuator/threadmodel reports the adaptive limit, and /actuator/health answers 200 after the burst;
- the JVM exits within 30 s of SIGTERM.
Writes the app's log and a summary into --out. Standard library only; loopback only; every wait is bounded.
"""
import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "load"))
import toolkit  # noqa: E402


async def one_request(port, path, deadline):
    """Sends one request on a new connection; answers (status, has Retry-After) or (error text, False)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), deadline)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), deadline)
        await asyncio.wait_for(reader.read(), deadline)
        writer.close()
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        retry_after = any(line.lower().startswith("retry-after:") for line in lines[1:])
        return status, retry_after
    except Exception as ex:  # noqa: BLE001 - counted and reported
        return type(ex).__name__, False


async def burst(port, count, deadline):
    path = "/greetings?name=burst"
    started = time.monotonic()
    results = await asyncio.gather(*(one_request(port, path, deadline) for _ in range(count)))
    return results, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jar", default=str(ROOT / "sample-web/target/sample-web-tomcat.jar"))
    parser.add_argument("--heap", default="-Xmx128m")
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--deadline", type=float, default=100, help="seconds any one request may take")
    parser.add_argument("--out", default=str(ROOT / "target/small-heap-burst"))
    parser.add_argument("app_args", nargs="*", help="more arguments for the app, after --")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / "app.log"
    failures = []
    java = toolkit.java()
    toolkit.stop_on_sigterm()
    app = toolkit.App([java, args.heap, "-jar", args.jar],
                      ["--app.threads.model=virtual", "--management.endpoints.web.exposure.include=health,threadmodel",
                       *args.app_args], log_path)
    try:
        base, port = app.base, app.port
        try:
            app.wait_http("/actuator/health", 180, interval=1)
        except RuntimeError:
            if app.alive():
                failures.append("the app did not start within 180 s")
        if not app.alive():
            failures.append(f"the app exited with {app.proc.returncode} before the burst")
        if not failures:
            results, took = asyncio.run(burst(port, args.requests, args.deadline))
            counts = {}
            for status, retry_after in results:
                key = str(status) + (" with Retry-After" if status == 503 and retry_after else "")
                counts[key] = counts.get(key, 0) + 1
            bad = {key: n for key, n in counts.items() if key not in ("200", "503 with Retry-After")}
            print(f"{args.requests} requests at once, {args.heap}: {counts}, {took:.1f} s")
            if bad:
                failures.append(f"answers other than 200 or 503 with Retry-After: {bad}")
            status, body = toolkit.http(base + "/actuator/threadmodel")
            admission = json.loads(body).get("admission") if status == 200 else None
            print(f"admission after the burst: {admission}")
            if not admission or admission.get("mode") != "adaptive":
                failures.append(f"/actuator/threadmodel shows no adaptive limit: {status} {admission}")
            health = toolkit.http(base + "/actuator/health")[0]
            if health != 200:
                failures.append(f"/actuator/health answered {health} after the burst")
            (out / "summary.json").write_text(json.dumps(
                {"requests": args.requests, "heap": args.heap, "answers": counts, "seconds": round(took, 2),
                 "admission": admission, "healthAfter": health}, indent=2))
    finally:
        if not app.stop(grace=30):
            failures.append("the JVM did not stop within 30 s of SIGTERM")
    log_text = log_path.read_text(errors="replace")
    if "OutOfMemoryError" in log_text:
        failures.append("the log has an OutOfMemoryError")
    for failure in failures:
        print("FAILED: " + failure, file=sys.stderr)
    print(f"app log: {log_path}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
