#!/usr/bin/env python3
"""Proves a benchmark report's charts draw in a real browser: renders report.html in headless
Chromium (offline), dumps the DOM after scripts ran, takes a full-page screenshot, then

  1. checks every chart the report was meant to have is in the rendered DOM with marks
     (bars / points) inside it, and
  2. crops the screenshot to each chart's box and counts coloured (non-grey) pixels: a chart whose
     bars or lines did not paint has none, since axes, grid and text are grey or black.

    load/check_report_render.py results/<timestamp>/report.html [--png out.png] [--chromium PATH]

Exit 0 when every chart drew, 1 otherwise. Standard library only (PNG decoded with zlib).
Chromium: Debian's `chromium` (apt-get install -y chromium).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--force-device-scale-factor=1"]
EXPECTED_CHARTS = ["chart-avg-response", "chart-rps", "chart-startup", "chart-cpu", "chart-memory"]
WIDTH = 1100


# ---------------------------------------------------------------- PNG (stdlib)

def decode_png(data: bytes):
    """(width, height, rows) for 8-bit greyscale/RGB/RGBA, non-interlaced PNGs; rows are lists of
    (r, g, b) tuples. Enough for Chromium screenshots."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if ctype == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            if depth != 8 or interlace or color not in (0, 2, 6):
                raise ValueError(f"unsupported PNG (depth {depth}, colour {color}, interlace {interlace})")
        elif ctype == b"IDAT":
            idat += chunk
        elif ctype == b"IEND":
            break
    if width is None:
        raise ValueError("PNG without IHDR")
    bpp = {0: 1, 2: 3, 6: 4}[color]
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    i = 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 0xFF
        elif f == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 0xFF
        elif f == 3:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((left + prev[x]) >> 1)) & 0xFF
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 0xFF
        elif f != 0:
            raise ValueError(f"bad PNG filter {f}")
        prev = line
        if bpp == 1:
            rows.append([(v, v, v) for v in line])
        else:
            rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
    return width, height, rows


def coloured_pixels(rows, box) -> int:
    """Pixels in box (x, y, w, h) whose channels differ by more than 60: colour, not grey/black/white."""
    x0, y0, w, h = box
    n = 0
    for y in range(max(0, y0), min(len(rows), y0 + h)):
        row = rows[y]
        for x in range(max(0, x0), min(len(row), x0 + w)):
            r, g, b = row[x]
            if max(r, g, b) - min(r, g, b) > 60:
                n += 1
    return n


def layout_from_dom(dom: str) -> dict:
    m = re.search(r'<pre id="chart-layout">(.*?)</pre>', dom, re.S)
    if not m or not m.group(1).strip():
        raise ValueError("the page's layout script did not run (no #chart-layout content)")
    import html
    return json.loads(html.unescape(m.group(1)))


# ---------------------------------------------------------------- browser

def chromium_path(given: str | None) -> str:
    for c in ([given] if given else []) + ["/usr/bin/chromium", shutil.which("chromium") or "",
                                          shutil.which("chromium-browser") or ""]:
        if c and os.path.exists(c):
            return c
    raise SystemExit("chromium not found: apt-get update && apt-get install -y chromium")


def run_chromium(chromium: str, args: list[str], timeout: int = 90) -> subprocess.CompletedProcess:
    profile = tempfile.mkdtemp(prefix="chromium-check-")
    try:
        return subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def check(report: Path, png_out: Path, chromium: str, expected: list[str], min_pixels: int = 200) -> list[str]:
    """Renders and checks; returns a list of problems (empty = every chart drew)."""
    url = report.resolve().as_uri()
    dump = run_chromium(chromium, [f"--window-size={WIDTH},1000", "--virtual-time-budget=3000", "--dump-dom", url])
    dom = dump.stdout.decode("utf-8", "replace")
    problems = []
    try:
        layout = layout_from_dom(dom)
    except ValueError as e:
        return [str(e)]
    height = max(1000, int(layout["page"]["h"]) + 20)
    shot = run_chromium(chromium, [f"--window-size={WIDTH},{height}", "--virtual-time-budget=3000",
                                   f"--screenshot={png_out}", url])
    if not png_out.exists():
        return [f"no screenshot written: {shot.stderr.decode(errors='replace')[-500:]}"]
    w, h, rows = decode_png(png_out.read_bytes())
    found = {c["id"]: c for c in layout["charts"]}
    # Every chart the page has must draw too, not only the expected ones.
    expected = list(expected) + [cid for cid in found if cid not in expected]
    for cid in expected:
        c = found.get(cid)
        if not c:
            problems.append(f"{cid}: not in the rendered page")
            continue
        if c["marks"] == 0:
            problems.append(f"{cid}: no bars/points in the DOM")
        # The plot area only: the legend's colour swatches lie outside it and must not count.
        p = c["plot"]
        n = coloured_pixels(rows, (p["x"], p["y"], p["w"], p["h"]))
        status = "ok" if n >= min_pixels else "BLANK"
        print(f"  {cid}: {c['marks']} marks, {n} coloured pixels in its {p['w']}x{p['h']} plot area at "
              f"({p['x']},{p['y']}) {status}")
        if n < min_pixels:
            problems.append(f"{cid}: only {n} coloured pixels in its plot area (< {min_pixels})")
    print(f"  screenshot {png_out} {w}x{h}, {len(found)} charts in the page")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report", type=Path)
    ap.add_argument("--png", type=Path, help="where to write the screenshot (default: next to the report)")
    ap.add_argument("--chromium")
    ap.add_argument("--expect", default=",".join(EXPECTED_CHARTS),
                    help="chart ids that must be in the page and draw (any other chart in the page must draw too)")
    a = ap.parse_args(argv)
    png = a.png or a.report.with_name(a.report.stem + "-screenshot.png")
    if png.exists():
        png.unlink()
    problems = check(a.report, png, chromium_path(a.chromium), [x for x in a.expect.split(",") if x])
    for p in problems:
        print(f"FAIL {p}")
    print("charts drew" if not problems else "charts did NOT draw")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
