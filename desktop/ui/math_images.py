"""Typesets the formulas of answers into images, in a worker thread, once each.

`MathTypesetter` is the chat view's `desktop.render.maths.MathSource`. Rendering asks it
about each formula: the first time, the formula is queued for the worker thread and
shows as its source; the worker has a child process turn the TeX into SVG
(`desktop.render.tex_worker`: ziamath, pure Python, its fonts bundled, nothing
fetched), draws the SVG into a `QImage` (QtSvg), and hands the image to the GUI thread
by a queued signal; there it is cached, and `typeset` names the formulas that are ready
(in batches, paced to what showing them again costs), so the chat shows those messages
again, now with the image as a document resource (`image`). The GUI thread never
typesets, and the typesetting never holds this process's interpreter lock: the window
does not wait for it. The child starts with the first formula and ends after `IDLE_MS`
without one.

Each formula is typeset once for a style: the text's colour, pixel size and the screen's
device-pixel ratio (`MathStyle`, given by the chat view; a new style starts a new cache).
The image has as many pixels as the screen shows (two per logical pixel at 2x) and an
inline formula is padded so that, centred on the line as Qt centres an image, its
baseline sits on the text's.

A formula that cannot be typeset (bad TeX, an error in the typesetter, over the limits
of `desktop.render.guard`, too large, or past the cache's size) is remembered as failed
with a reason in our own words (never the typesetter's message, which may quote the
formula: the reason becomes a tooltip); its source stays on screen, marked.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import logging
import math
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from PySide6.QtCore import QByteArray, QObject, QRectF, QTimer, QUrl, Signal
from PySide6.QtGui import QColor, QImage, QPainter

from desktop.core import collector
from desktop.core.i18n import tr
from desktop.render.maths import FAILED, PENDING, READY, Formula, formula_problem
from desktop.render.tex_process import STOPPED, TIMED_OUT, UNAVAILABLE, TexProcess
from desktop.render.tex_worker import INVALID, NESTED, UNKNOWN_COMMAND

log = logging.getLogger(__name__)

MATH_SCHEME = "parley-math"
MAX_FORMULA_PIXELS = 4_000_000  # device pixels of one image (16 MB)
CACHE_BYTES = 64 * 1024 * 1024  # all images of one style; past it formulas stay source
MAX_QUEUED = 5_000  # formulas waiting for the worker
BATCH_MS = 30  # formulas ready within this are announced together
MAX_BATCH_MS = 3_000  # ... or longer, when showing them again costs much (see `_flush`)
MATH_SCALE = 1.2  # the maths font looks smaller than a sans-serif text font at one size
IDLE_MS = 30_000  # no formula for this long: the typesetting child ends (about 40 MB)

_WORDS = re.compile(r"(?<=[a-z])(?=[A-Z])")


@dataclass(frozen=True, slots=True)
class MathStyle:
    """How formulas look: `colour` (#rrggbb), the text's `pixel_size`, `middle` (how far
    above the baseline Qt centres an image on a line of that text) and `scale` (device
    pixels per logical pixel)."""

    colour: str = "#1d1d1f"
    pixel_size: float = 16.0
    middle: float = 4.0
    scale: float = 1.0


@dataclass(frozen=True, slots=True)
class Typeset:
    """What the worker made of one formula: an image and its logical size, or a reason."""

    image: QImage | None
    width: int = 0
    height: int = 0
    reason: str = ""


class _Relay(QObject):
    """Carries results from the worker to the GUI thread (a queued connection). Owned by
    its typesetter, so only the GUI thread ever deletes it: the worker holds this and
    `_Progress`, never the typesetter (a QObject whose last reference dropped in the
    worker would be deleted there, its timers with it)."""

    finished = Signal(str, int, object)  # key, style generation, Typeset


@dataclass(slots=True)
class _Progress:
    """What the worker reads of its typesetter: the current style's number, and whether
    it still wants anything. `lock` is held while the worker hands a result over and
    while the typesetter closes: once `close` returns, the worker never touches the
    relay again, so the GUI thread may delete it (an emit racing the deletion of its
    object crashed the process)."""

    generation: int = 0
    closed: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    executor: ThreadPoolExecutor | None = None  # the worker, once a formula was asked for
    tex: TexProcess = field(default_factory=TexProcess)  # the child the worker asks
    holding: bool = False  # automatic collections held off while the worker works


def _work(
    relay: _Relay, progress: _Progress, key: str, generation: int, job: tuple[str, bool, MathStyle]
) -> None:
    """In the worker thread: typeset one formula and send the result to the GUI thread."""
    if generation != progress.generation or progress.closed:
        result = Typeset(None)  # for a style since replaced: not worth doing
    else:
        result = typeset_formula(progress.tex, *job)
    with progress.lock, contextlib.suppress(RuntimeError):  # RuntimeError: relay deleted
        if not progress.closed:
            relay.finished.emit(key, generation, result)


def _stop(progress: _Progress) -> None:
    """No result reaches the relay from now on (see `_Progress`); the worker ends after
    the formula it is on, the queue is dropped."""
    with progress.lock:
        progress.closed = True
    if progress.executor is not None:
        progress.executor.shutdown(wait=False, cancel_futures=True)
        progress.executor = None
    progress.tex.close()  # the formula the worker is on ends with it
    _let_collect(progress)


def _hold_collections(progress: _Progress) -> None:
    """While the worker works, no automatic collection: one that the worker's
    allocations set off would run in its thread and finalise Qt objects there
    (`desktop.core.collector`); the GUI thread collects instead (`_flush`)."""
    if not progress.holding:
        progress.holding = True
        collector.hold()


def _let_collect(progress: _Progress) -> None:
    """On the GUI thread: collections may run again. The worker's young garbage is
    collected here first, so the few objects it still allocates after its last report
    (on its way back to waiting) cannot set a collection off in its thread."""
    if progress.holding:
        progress.holding = False
        gc.collect(0)
        collector.release()


class MathTypesetter(QObject):
    """Formulas as images for the chat; `renders` counts formulas the worker typeset."""

    typeset = Signal(list)  # keys of formulas now ready or failed

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._style = MathStyle()
        self._progress = _Progress()
        self._relay = _Relay(self)
        self._relay.finished.connect(self._on_finished)
        # Deleted without `close` (its parent went first): stopped before its relay goes.
        self.destroyed.connect(functools.partial(_stop, self._progress))
        self._formulas: dict[str, Formula] = {}
        self._images: dict[str, QImage] = {}
        self._bytes = 0
        self._queued = 0
        self._announce: list[str] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(BATCH_MS)
        self._timer.timeout.connect(self._flush)
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.setInterval(IDLE_MS)
        self._idle.timeout.connect(self._end_child_if_idle)
        self.renders = 0

    @property
    def style(self) -> MathStyle:
        return self._style

    @property
    def in_use(self) -> bool:
        """True once a formula was asked about in the current style (shown somewhere)."""
        return bool(self._formulas)

    @property
    def settled(self) -> bool:
        """True when no formula is being typeset and none waits to be announced."""
        return not self._queued and not self._announce

    def set_style(self, style: MathStyle) -> bool:
        """Typeset from now on in `style`; True when it changed (what is shown is stale)."""
        if style == self._style:
            return False
        self._style = style
        self._progress.generation += 1  # what the worker returns for the old one is dropped
        self._formulas.clear()
        self._images.clear()
        self._bytes = 0
        return True

    # --- MathSource ---------------------------------------------------------------

    def formula(self, tex: str, display: bool) -> Formula:
        style = self._style
        key = _key(tex, display, style)
        known = self._formulas.get(key)
        if known is not None:
            return known
        problem = formula_problem(tex)
        if problem is not None:
            known = self._formulas[key] = Formula(FAILED, key=key, reason=problem)
            return known
        if self._bytes >= CACHE_BYTES or self._queued >= MAX_QUEUED:
            # Not remembered: asked again when the message is shown again, there may be
            # room by then (the queue drains; a new style starts a new cache).
            return Formula(FAILED, key=key, reason=tr("too many formulas to show at once"))
        if self._progress.closed:  # Parley quits: nothing is typeset any more
            return Formula(PENDING, key=key)
        known = self._formulas[key] = Formula(PENDING, key=key)
        _hold_collections(self._progress)
        self._queued += 1
        job = (tex, display, style)
        generation = self._progress.generation
        self._worker().submit(_work, self._relay, self._progress, key, generation, job)
        return known

    def waiting(self, key: str) -> bool:
        known = self._formulas.get(key)
        return known is not None and known.state == PENDING

    def known(self, key: str) -> Formula | None:
        return self._formulas.get(key)

    # --- for the views ------------------------------------------------------------

    def image(self, url: QUrl | str) -> QImage | None:
        """The image of a ready formula, by its resource URL."""
        name = url.toString() if isinstance(url, QUrl) else url
        if not name.startswith(f"{MATH_SCHEME}:"):
            return None
        return self._images.get(name[len(MATH_SCHEME) + 1 :])

    def close(self) -> None:
        """Stop the worker (a formula it is on finishes, unannounced; the queue is
        dropped). Call it before the typesetter is deleted."""
        _stop(self._progress)

    # --- the worker ---------------------------------------------------------------

    def _worker(self) -> ThreadPoolExecutor:
        progress = self._progress
        if progress.executor is None:
            # One thread: the typesetter keeps global state, and formulas queue anyway.
            progress.executor = ThreadPoolExecutor(1, thread_name_prefix="parley-maths")
        return progress.executor

    def _on_finished(self, key: str, generation: int, result: Typeset) -> None:
        self._queued -= 1
        if not self._queued:
            _let_collect(self._progress)
            self._idle.start()
        if generation != self._progress.generation or self._formulas.get(key) is None:
            return
        self.renders += 1
        if result.image is None:
            self._formulas[key] = Formula(FAILED, key=key, reason=result.reason)
        else:
            self._images[key] = result.image
            self._bytes += result.image.sizeInBytes()
            self._formulas[key] = Formula(
                READY,
                key=key,
                name=f"{MATH_SCHEME}:{key}",
                width=result.width,
                height=result.height,
            )
        self._announce.append(key)
        if not self._timer.isActive():
            self._timer.start()

    def _end_child_if_idle(self) -> None:
        if not self._queued:  # so the worker is not asking it either
            self._progress.tex.stop()

    @property
    def child_pid(self) -> int | None:
        """The typesetting child's process id while it runs (tests look at it)."""
        return self._progress.tex.pid

    def _flush(self) -> None:
        keys, self._announce = self._announce, []
        if not keys:
            return
        if self._progress.holding:  # the worker's young garbage, collected in this thread
            gc.collect(0)
        started = time.thread_time()
        self.typeset.emit(keys)  # the chat shows the messages again, in this call
        # Showing them again costs the GUI thread: the next batch waits long enough to
        # keep that under a tenth of its time (thousands of formulas in one long answer).
        cost_ms = (time.thread_time() - started) * 1000
        self._timer.setInterval(min(max(BATCH_MS, round(cost_ms * 9)), MAX_BATCH_MS))


def _key(tex: str, display: bool, style: MathStyle) -> str:
    data = f"{int(display)}\0{style.colour}\0{style.pixel_size}\0{style.scale}\0{tex}"
    return hashlib.blake2b(data.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def typeset_formula(tex: TexProcess, formula: str, display: bool, style: MathStyle) -> Typeset:
    """`formula` as an image in `style` (typeset by the child `tex`), or why not. Any
    thread but the GUI thread (it waits for the child); never raises."""
    started = time.perf_counter()
    answer = tex.typeset(formula, display, style.colour, style.pixel_size * MATH_SCALE)
    svg = answer.get("svg")
    if svg is None:
        log.info("formula not typeset (%s %s)", answer.get("problem"), answer.get("detail", ""))
        return Typeset(None, reason=_reason(answer.get("problem", ""), answer.get("detail", "")))
    image = _draw(svg, display, style)
    log.debug("formula typeset in %.0f ms", (time.perf_counter() - started) * 1000)
    return image


def _reason(problem: str, detail: str) -> str:
    """A problem in words (`tex_worker` and `tex_process` name them). An invalid
    formula's detail is the typesetter's error class, not its message, which may quote
    the formula: the reason becomes a tooltip."""
    if problem == UNKNOWN_COMMAND:
        return tr("unknown command %1").replace("%1", detail)
    if problem == NESTED:
        return tr("nested too deeply")
    if problem == TIMED_OUT:
        return tr("took too long to typeset")
    if problem == STOPPED:
        return tr("the typesetter stopped")
    if problem == UNAVAILABLE:
        return tr("the typesetter could not be started")
    if problem == INVALID:
        words = _WORDS.sub(" ", detail.removesuffix("Error")).lower().strip()
        return tr("not valid TeX (%1)").replace("%1", words) if words else tr("not valid TeX")
    return tr("the typesetter's output was not understood")


def _draw(svg: str, display: bool, style: MathStyle) -> Typeset:
    from PySide6.QtSvg import QSvgRenderer  # loaded with the first formula

    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    if not renderer.isValid():
        return Typeset(None, reason=tr("the typesetter's output was not understood"))
    box = renderer.viewBoxF()
    width, height = box.width(), box.height()
    descent = box.y() + height  # the SVG's y = 0 is the formula's baseline
    top = 0.0
    if not display:  # pad so that centring the image puts its baseline on the text's
        above_centre = height / 2 - descent
        if above_centre > style.middle:
            descent_pad = height - 2 * descent - 2 * style.middle
            height += descent_pad
        else:
            top = 2 * style.middle + 2 * descent - height
            height += top
    logical_width, logical_height = math.ceil(width), math.ceil(height)
    scale = style.scale
    pixels_wide, pixels_high = round(logical_width * scale), round(logical_height * scale)
    if pixels_wide * pixels_high > MAX_FORMULA_PIXELS or not pixels_wide or not pixels_high:
        return Typeset(None, reason=tr("too large to show"))
    image = QImage(pixels_wide, pixels_high, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor(0, 0, 0, 0))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, top * scale, box.width() * scale, box.height() * scale))
    painter.end()
    image.setDevicePixelRatio(scale)
    return Typeset(image, logical_width, logical_height)
