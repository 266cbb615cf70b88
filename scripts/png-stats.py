#!/usr/bin/env python3
"""Print how much of a PNG is not white, and how many colours it uses.

Usage: png-stats.py FILE.png  ->  "<fraction of non-white pixels> <distinct colours>"
Standard library only (zlib), for 8-bit RGB/RGBA non-interlaced PNGs as Chromium writes them.
"""
import struct, sys, zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG file")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                sys.exit(f"{path}: unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    for y in range(height):
        filter_type = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if filter_type == 1: line[i] = (line[i] + a) & 255
            elif filter_type == 2: line[i] = (line[i] + b) & 255
            elif filter_type == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif filter_type == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    for line in rows:
        for x in range(width):
            yield tuple(line[x * channels:x * channels + 3])


def main():
    total = inked = 0
    colours = set()
    for rgb in pixels(sys.argv[1]):
        total += 1
        if rgb != (255, 255, 255):
            inked += 1
        if len(colours) < 10000:
            colours.add(rgb)
    print(f"{inked / max(total, 1):.4f} {len(colours)}")


if __name__ == "__main__":
    main()
