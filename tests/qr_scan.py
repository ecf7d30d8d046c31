"""Read QR codes back as a phone would, with a real decoder: zbar's ``zbarimg`` (Debian's
zbar-tools, installed by ``bash companion/install.sh test``). Used by the Load / Save tests to
check that the QR codes the app makes, and the codes as drawn on its screen, give the game's
text back exactly (docs/game-text.md)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def zbarimg() -> str:
    exe = shutil.which("zbarimg")
    assert exe, "zbarimg is missing: bash companion/install.sh test installs Debian's zbar-tools"
    return exe


def scan(image: str | Path) -> list[str]:
    """The texts of the QR codes found in ``image`` (PNG, PGM, ...), as zbar gives them: byte
    data in the character set it names or guesses (QR's default ISO-8859-1, else UTF-8), turned
    into text, as a phone's camera app shows it. Only QR codes are looked for."""
    done = subprocess.run([zbarimg(), "--quiet", "--raw", "--nodbus", "-Sdisable", "-Sqrcode.enable", str(image)],
                          capture_output=True, timeout=60)
    if done.returncode == 4:  # zbarimg: no symbol found
        return []
    assert done.returncode == 0, f"zbarimg failed on {image}: {done.stderr.decode(errors='replace')}"
    out = done.stdout.decode("utf-8")
    # --raw prints each symbol's text followed by one newline; a text may hold newlines itself,
    # so several symbols in one image cannot be told apart: the callers show one code at a time.
    assert out.endswith("\n"), out
    return [out[:-1]]


def matrix_pgm(matrix, path: str | Path, scale: int = 4) -> Path:
    """Write a module matrix (rows of dark = True) as a greyscale PGM, ``scale`` pixels a module,
    black on white, nothing added around it (the matrix brings its own quiet zone)."""
    rows = []
    for row in matrix:
        line = bytes(0 if dark else 255 for dark in row for _ in range(scale))
        rows.extend([line] * scale)
    path = Path(path)
    path.write_bytes(b"P5\n%d %d\n255\n" % (len(matrix[0]) * scale, len(matrix) * scale) + b"".join(rows))
    return path
