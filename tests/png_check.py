"""Read a PNG without extra packages (zlib only), to check that screenshots are not blank."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def read_png(path: str | Path) -> tuple[int, int, int, bytes]:
    """(width, height, channels, raw pixel rows without filter bytes) of an 8-bit, non-interlaced
    grey/RGB/RGBA PNG."""
    data = Path(path).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or interlace:
                raise ValueError(f"{path}: only 8-bit non-interlaced PNGs are read here")
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    out = bytearray()
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 0:  # no filter (every row of Kivy's screenshots): the bytes are the pixels
            out += line
            prev = line
            continue
        if f == 2:  # up: each byte plus the one above it
            line = bytearray((x + p) & 255 for x, p in zip(line, prev))
            out += line
            prev = line
            continue
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return width, height, channels, bytes(out)


def colour_count(path: str | Path, step: int = 7) -> int:
    """How many different colours a sample of the image's pixels has (1 means blank)."""
    width, height, channels, pixels = read_png(path)
    seen = set()
    for i in range(0, width * height, step):
        seen.add(pixels[i * channels:i * channels + min(channels, 3)])
    return len(seen)
