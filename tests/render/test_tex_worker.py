"""The typesetting child's side: TeX in, SVG paths or a named problem out, one ASCII
JSON line each way, run for real (in process, and as `main.py --maths-worker`)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from desktop.core.child_command import MATHS_WORKER_FLAG, child_command
from desktop.render.tex_worker import INVALID, NESTED, UNKNOWN_COMMAND, serve, typeset_svg
from tests.support.paths import ROOT


def test_a_formula_becomes_svg_paths_in_its_colour():
    svg = typeset_svg("x^2 + y^2", False, "#123456", 19.2)["svg"]
    assert svg.startswith("<svg") and "<path" in svg and "#123456" in svg
    assert "<use" not in svg and "<symbol" not in svg  # SVG 1.1: QtSvg draws it


def test_problems_are_named_never_quoted():
    assert typeset_svg("\\foo{x}", False, "#000000", 16) == {
        "problem": UNKNOWN_COMMAND,
        "detail": "\\foo",
    }
    invalid = typeset_svg("\\frac{1}{", False, "#000000", 16)
    assert invalid["problem"] == INVALID and "frac" not in invalid["detail"]
    assert NESTED != INVALID  # a RecursionError is told apart (see tex_worker)


def test_serve_answers_each_line_in_ascii_and_survives_a_bad_request():
    requests = [
        {"tex": "\\text{é} + 中", "display": True, "colour": "#000000", "size": 16},
        "not json",
        {"tex": "x"},  # fields missing
        {"tex": "y", "display": False, "colour": "#000000", "size": 16},
    ]
    lines = b"".join(
        (r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)).encode() + b"\n"
        for r in requests
    )
    answers = io.BytesIO()
    serve(io.BytesIO(lines), answers)
    out = answers.getvalue()
    assert out.isascii()
    first, bad, missing, last = (json.loads(line) for line in out.splitlines())
    assert "<path" in first["svg"] and "<path" in last["svg"]
    assert bad == missing == {"problem": INVALID, "detail": "request"}


def test_a_bundle_runs_itself_with_the_flag_and_main_hands_it_to_the_worker(monkeypatch):
    assert child_command("desktop.render.tex_worker", MATHS_WORKER_FLAG)[1:] == [
        "-m",
        "desktop.render.tex_worker",
    ]
    env = {**os.environ}
    env.pop("QT_QPA_PLATFORM", None)  # the worker must not need a display: it starts no Qt
    request = {"tex": "a_1", "display": False, "colour": "#000000", "size": 16}
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), MATHS_WORKER_FLAG],
        input=(json.dumps(request) + "\n").encode(),
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "<path" in json.loads(result.stdout)["svg"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert child_command("desktop.render.tex_worker", MATHS_WORKER_FLAG) == [
        sys.executable,
        MATHS_WORKER_FLAG,
    ]
