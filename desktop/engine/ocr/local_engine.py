"""The local offline OCR engine (RapidOCR, the optional `ocr` extra), run in a child.

The child (`worker.py`) loads the engine, reads every image of one call and exits, so
the ≈ 600 MB the models take is returned to the system as soon as the text is in. It
runs in its own process group: a timeout or Stop kills it and anything it started, and
nothing is left running after a call, whichever way it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop.core.child_command import (
    OCR_WORKER_FLAG,
    child_command,
    child_environment,
    own_session,
)
from desktop.core.errors import ParleyError
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.engine.ocr.worker import ENGINE_MODULES
from desktop.engine.processes import kill_tree, start_guarded

TIMEOUT_S = 120.0
INSTALL_HINT = "pip install 'parley[ocr]'"
_STDERR_KEPT = 2000  # characters of the child's complaint worth showing


class OcrError(ParleyError):
    """Reading the text in an image failed; the message says which engine and why."""


@dataclass(frozen=True, slots=True)
class TextBox:
    """One piece of text the engine found, with its box's corners in image pixels."""

    text: str
    box: tuple[tuple[float, float], ...]

    @property
    def top(self) -> float:
        return min(y for _, y in self.box)

    @property
    def bottom(self) -> float:
        return max(y for _, y in self.box)

    @property
    def left(self) -> float:
        return min(x for x, _ in self.box)

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2


def reading_order(boxes: Sequence[TextBox]) -> str:
    """Lines top to bottom, pieces on one line left to right joined by a space.

    A piece belongs to the line above when its vertical middle lies within that line's
    first piece, which keeps a table's cells on one line even when the engine found
    them as separate boxes at slightly different heights.
    """
    lines: list[list[TextBox]] = []
    for box in sorted(boxes, key=lambda b: (b.top, b.left)):
        if lines and lines[-1][0].top <= box.middle <= lines[-1][0].bottom:
            lines[-1].append(box)
        else:
            lines.append([box])
    return "\n".join(
        " ".join(b.text.strip() for b in sorted(line, key=lambda b: b.left) if b.text.strip())
        for line in lines
    ).strip()


def _parse_answer(stdout: bytes, count: int) -> list[str]:
    try:
        images = json.loads(stdout.decode("utf-8"))["images"]
        if not isinstance(images, list) or len(images) != count:
            raise ValueError("wrong number of images")
        return [
            reading_order(
                [
                    TextBox(str(b["text"]), tuple((float(x), float(y)) for x, y in b["box"]))
                    for b in boxes
                ]
            )
            for boxes in images
        ]
    except (ValueError, KeyError, TypeError) as error:
        raise OcrError(
            tr("The local OCR engine gave an answer Parley cannot read ({error}).").format(
                error=error
            )
        ) from None


class LocalOcrEngine:
    """Transcribes images with RapidOCR in a child process.

    `modules` are what must be importable for the engine to work; tests name a module
    that does not exist to see Parley without the extra installed.
    """

    label = QT_TR_NOOP("local engine")
    key = "local-rapidocr"

    def __init__(
        self, *, modules: Sequence[str] = ENGINE_MODULES, timeout_s: float = TIMEOUT_S
    ) -> None:
        self._modules = tuple(modules)
        self._timeout_s = timeout_s

    @property
    def available(self) -> bool:
        """Whether the engine is installed, found without importing it (that alone would
        take seconds and hundreds of megabytes)."""
        return all(_findable(name) for name in self._modules)

    async def transcribe(self, images: Sequence[bytes]) -> list[str]:
        """The text of each image, lines in reading order; "" for an image without text.
        Raises `OcrError` when the engine is missing, crashes or takes too long."""
        if not images:
            return []
        if not self.available:
            raise OcrError(
                tr("The local OCR engine is not installed ({command}).").format(
                    command=INSTALL_HINT
                )
            )
        folder = await asyncio.to_thread(tempfile.mkdtemp, prefix="parley-ocr-")
        try:
            paths = await asyncio.to_thread(_write_images, Path(folder), images)
            stdout = await self._run(paths)
        finally:
            await asyncio.to_thread(shutil.rmtree, folder, ignore_errors=True)
        return _parse_answer(stdout, len(images))

    async def _run(self, paths: list[Path]) -> bytes:
        process = await start_guarded(_start(paths))
        try:
            stdout, stderr = await asyncio.wait_for(process.communicate(), self._timeout_s)
        except TimeoutError:
            raise OcrError(
                tr(
                    "The local OCR engine did not finish within {seconds:g} s and was stopped."
                ).format(seconds=self._timeout_s)
            ) from None
        finally:
            if process.returncode is None:  # Stop, timeout or any failure: never leave it
                kill_tree(process)
                with contextlib.suppress(ProcessLookupError):
                    await asyncio.shield(process.wait())
        if process.returncode != 0:
            reason = _last_line(stderr) or tr("exit code {code}").format(code=process.returncode)
            raise OcrError(tr("The local OCR engine failed: {reason}").format(reason=reason))
        return stdout


def _findable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def worker_command() -> list[str]:
    """How to start the worker: `python -m ...`, or in a bundle the executable itself."""
    return child_command("desktop.engine.ocr.worker", OCR_WORKER_FLAG)


async def _start(paths: list[Path]) -> asyncio.subprocess.Process:
    """The worker (see `worker_command`) with Parley's own package importable."""
    return await asyncio.create_subprocess_exec(
        *worker_command(),
        *map(str, paths),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=child_environment(),
        **own_session(),
    )


def _write_images(folder: Path, images: Sequence[bytes]) -> list[Path]:
    paths = [folder / f"{i}.img" for i in range(len(images))]
    for path, data in zip(paths, images, strict=True):
        path.write_bytes(data)
    return paths


def _last_line(stderr: bytes) -> str:
    lines = stderr.decode("utf-8", errors="replace").strip().splitlines()
    return lines[-1][-_STDERR_KEPT:] if lines else ""
