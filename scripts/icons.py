#!/usr/bin/env python3
"""Draws the page's app icons (web/icons/*.png) from the shapes of web/icon.svg.

Python's standard library only: every shape is a signed distance in the SVG's 64-unit frame,
turned into coverage per pixel (one pixel's width of edge), composited and written as an RGBA
PNG with zlib. Run from the repository root after changing the icon:

    python3 scripts/icons.py

The server's tests check that the PNGs' sizes are the ones web/manifest.webmanifest names.
"""

import math
import os
import struct
import sys
import zlib

BACKGROUND = (0xD8, 0xEC, 0xC9)
GREEN = (0x3D, 0x7A, 0x22)
RED = (0xC8, 0x38, 0x1F)
BLUE = (0x1F, 0x5F, 0xC8)


def rounded_box(px, py, cx, cy, half, radius):
    """Signed distance to a square of half-width `half` with corners of `radius`."""
    qx = abs(px - cx) - (half - radius)
    qy = abs(py - cy) - (half - radius)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def triangle(px, py, pts):
    """Signed distance to a triangle (negative inside)."""
    best = float("inf")
    inside = True
    sign = None
    for i in range(3):
        ax, ay = pts[i]
        bx, by = pts[(i + 1) % 3]
        ex, ey = bx - ax, by - ay
        wx, wy = px - ax, py - ay
        t = max(0.0, min(1.0, (wx * ex + wy * ey) / (ex * ex + ey * ey)))
        best = min(best, math.hypot(wx - ex * t, wy - ey * t))
        cross = ex * wy - ey * wx
        s = cross > 0
        if sign is None:
            sign = s
        elif s != sign:
            inside = False
    return -best if inside else best


def arc(px, py, cx, cy, r, start, end, width):
    """Signed distance to a stroke of `width` along the circle's arc from `start` to `end`
    (degrees, screen coordinates: 0 right, 90 down, increasing clockwise)."""
    a = math.degrees(math.atan2(py - cy, px - cx)) % 360
    span = (end - start) % 360
    if (a - start) % 360 <= span:
        d = abs(math.hypot(px - cx, py - cy) - r)
    else:
        d = min(
            math.hypot(px - (cx + r * math.cos(math.radians(t))), py - (cy + r * math.sin(math.radians(t))))
            for t in (start, end)
        )
    return d - width / 2


def letter_s(px, py):
    """The "S" of the icon: two bowls drawn as strokes, the upper one open to the right, the
    lower one to the left."""
    upper = arc(px, py, 32.0, 31.7, 3.9, 90, 320, 3.4)
    lower = arc(px, py, 32.0, 39.5, 3.9, 270, 140, 3.4)
    return min(upper, lower)


def cover(d, per_unit):
    """The share of a pixel inside a shape at signed distance `d` (in units) from its centre."""
    return max(0.0, min(1.0, 0.5 - d * per_unit))


def draw(size, maskable):
    """The icon at `size`×`size` pixels as rows of RGBA bytes. `maskable`: full-bleed
    background and the emblem inside the safe circle (80 % of the size), for launchers that
    cut their own shape; else the rounded square of icon.svg on a transparent ground."""
    per_unit = size / 64.0
    scale = 0.8 if maskable else 1.0
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            ux = (x + 0.5) / per_unit
            uy = (y + 0.5) / per_unit
            # The emblem's frame: scaled about the centre for the maskable icon.
            ex = 32 + (ux - 32) / scale
            ey = 32 + (uy - 32) / scale
            eper = per_unit * scale
            layers = []
            if maskable:
                layers.append((BACKGROUND, 1.0))
            else:
                box = rounded_box(ux, uy, 32, 32, 30, 10)
                layers.append((BACKGROUND, cover(box, per_unit)))
                layers.append((GREEN, cover(abs(box) - 2, per_unit)))
            layers.append((RED, cover(triangle(ex, ey, [(32, 6), (42, 22), (22, 22)]), eper)))
            layers.append((BLUE, cover(triangle(ex, ey, [(58, 32), (42, 42), (42, 22)]), eper)))
            layers.append((GREEN, cover(letter_s(ex, ey), eper)))
            # Source-over, straight alpha.
            r = g = b = 0.0
            a = 0.0
            for (cr, cg, cb), ca in layers:
                if ca <= 0:
                    continue
                na = ca + a * (1 - ca)
                r = (cr * ca + r * a * (1 - ca)) / na
                g = (cg * ca + g * a * (1 - ca)) / na
                b = (cb * ca + b * a * (1 - ca)) / na
                a = na
            row += bytes((round(r), round(g), round(b), round(a * 255)))
        rows.append(bytes(row))
    return rows


def png(size, rows):
    """An 8-bit RGBA PNG: signature, IHDR, one IDAT (filter 0 on every row), IEND."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + r for r in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


# File name, size, maskable. The apple-touch-icon is opaque: iOS paints transparency black.
ICONS = [
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("icon-maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
]


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    out = os.path.join(root, "web", "icons")
    os.makedirs(out, exist_ok=True)
    for name, size, maskable in ICONS:
        path = os.path.join(out, name)
        with open(path, "wb") as f:
            f.write(png(size, draw(size, maskable)))
        print(f"{path}: {size}x{size}", file=sys.stderr)


if __name__ == "__main__":
    main()
