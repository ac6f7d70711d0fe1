"""The child process that typesets formulas: TeX in, SVG out, one JSON line each way.

Run as `python -m desktop.render.tex_worker` (a bundle: the executable with
`--maths-worker`). It reads requests ``{"tex", "display", "colour", "size"}`` from
stdin, one per line, and answers each on stdout with ``{"svg": ...}`` or
``{"problem": ..., "detail": ...}`` (`typeset_svg`); it ends when stdin closes.

Typesetting is pure Python (ziamath: TeX to MathML to glyph paths, about 950 cyclic
objects a formula). In Parley's process it held the interpreter lock half the time
while an answer streamed, so the window waited for it (the longest stall of a streamed
answer with formulas was 77-91 ms, against 28-46 ms with this child); in its own
process it shares nothing with the window. It never imports Qt:
drawing the SVG is Parley's (`desktop/ui/math_images.py`), as are the words for a
problem, which are translated there.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import warnings
from typing import Any, BinaryIO
from xml.etree import ElementTree

_UNKNOWN_COMMAND = re.compile(r"<m[io]>(\\[A-Za-z]+)</m[io]>")

# What `typeset_svg` can answer instead of an SVG (`detail` says more for some).
UNKNOWN_COMMAND = "unknown-command"  # detail: the command, e.g. "\\foo"
NESTED = "nested"  # too deeply nested for the typesetter
INVALID = "invalid"  # detail: the typesetter's error class, never its message
UNEXPECTED = "unexpected"  # the SVG holds more than paths: not drawn


def _ziamath() -> Any:
    """ziamath (0.2 s to import, so only with the first formula), set to SVG 1.1: its
    default SVG 2 output (glyphs as <symbol>/<use>) draws in QtSvg as nothing but the
    fraction bars."""
    if "ziamath" not in sys.modules:
        with warnings.catch_warnings():
            # ziamath and ziafont find their fonts with importlib.resources.path,
            # deprecated in Python 3.11 (it still works); said once, at import.
            warnings.simplefilter("ignore", DeprecationWarning)
            import ziamath
    import ziamath
    from ziamath.config import config

    config.svg2 = False
    return ziamath


def typeset_svg(tex: str, display: bool, colour: str, size: float) -> dict[str, str]:
    """`tex` as SVG paths in `colour` at font `size` (pixels), or the problem; the SVG's
    y = 0 is the formula's baseline. Never raises."""
    try:
        ziamath = _ziamath()
        from ziamath.tex import tex2mml

        mathml = tex2mml(tex, inline=not display)
        unknown = _UNKNOWN_COMMAND.search(mathml)
        if unknown is not None:
            return {"problem": UNKNOWN_COMMAND, "detail": unknown.group(1)}
        element = ElementTree.fromstring(mathml)
        element.attrib["mathcolor"] = colour
        svg = ziamath.Math(element, size=size).svg()
    except RecursionError:
        return {"problem": NESTED}
    except Exception as error:  # the typesetter's own errors have no common base
        return {"problem": INVALID, "detail": type(error).__name__}
    if "<image" in svg or "<use" in svg:  # only paths are expected: draw nothing else
        return {"problem": UNEXPECTED}
    return {"svg": svg}


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    """Answer each request line until `requests` ends. The lines are ASCII JSON, so
    no locale's encoding can garble them."""
    for line in requests:
        try:
            request = json.loads(line)
            answer = typeset_svg(
                str(request["tex"]),
                bool(request["display"]),
                str(request["colour"]),
                float(request["size"]),
            )
        except (ValueError, KeyError, TypeError):
            answer = {"problem": INVALID, "detail": "request"}
        answers.write(json.dumps(answer).encode("ascii") + b"\n")
        answers.flush()


def main() -> None:
    answers = sys.stdout.buffer
    with contextlib.redirect_stdout(sys.stderr):  # keep stray prints out of the answers
        serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
