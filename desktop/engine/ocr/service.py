"""Reading the text in images for a model that cannot see them (SPEC section 7).

Which engine reads them:
1. the OCR model chosen in Settings → OCR (any model with vision), when one is chosen;
2. otherwise the local offline engine, when Parley's `ocr` extra is installed;
3. otherwise nothing is sent: `OcrUnavailable` tells the person how to enable OCR.

When the chosen OCR model fails, the send fails with an `OcrError` naming that model;
Parley does not quietly fall back to the local engine. The person chose that model on
purpose (usually because it reads better than the local engine), so a transcription
from another engine would not be what they asked for, and a broken key or a model that
was withdrawn would otherwise go unnoticed while every image is read worse than they
expect. The error says how to switch to the local engine if they want that instead.

Results are cached per image hash and engine, one small JSON file each, so resending,
regenerating or editing a message reads each image only once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop.core.errors import ParleyError, ProviderError, SettingsError
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.models import ModelRef
from desktop.engine.ocr.local_engine import INSTALL_HINT, LocalOcrEngine, OcrError
from desktop.engine.ocr.vision_model import ProviderFor, transcribe_with_model
from desktop.engine.prompt.request_builder import RequestOptions

SETTINGS_PLACE = QT_TR_NOOP("Settings → OCR")


class OcrUnavailable(ParleyError):
    """Images must be read for a model without vision, and no OCR engine is set up."""

    def __init__(self) -> None:
        super().__init__(
            tr(
                "This model cannot see images, and Parley has no OCR to read them: choose an "
                "OCR model in {place}, or install Parley's local OCR engine: "
                "{command}. Nothing was sent."
            ).format(place=tr(SETTINGS_PLACE), command=INSTALL_HINT)
        )


@dataclass(frozen=True, slots=True)
class OcrImage:
    """An image to read: `sha256` is the hash of `data` (the attachment's), the cache key."""

    sha256: str
    name: str
    mime: str
    data: bytes


@dataclass(frozen=True, slots=True)
class OcrOutcome:
    """One text per image, in the order given, and which engine read them (for people:
    the model's name, or "local engine")."""

    texts: tuple[str, ...]
    engine: str


class OcrService:
    """Transcribes images with the configured OCR model or the local engine, cached.

    `model()` is the OCR model chosen now (None: the local engine); `provider_for` gives
    a provider by id (the settings service's); `request_options`, when given, supplies
    the person's extra headers and body for that provider, as every request carries.
    """

    def __init__(
        self,
        cache_dir: Path,
        model: Callable[[], ModelRef | None],
        provider_for: ProviderFor,
        local: LocalOcrEngine,
        *,
        request_options: Callable[[ModelRef], RequestOptions] | None = None,
    ) -> None:
        self._cache = _Cache(cache_dir)
        self._model = model
        self._provider_for = provider_for
        self._local = local
        self._request_options = request_options

    @property
    def available(self) -> bool:
        """Whether images can be read at all (an OCR model chosen, or the local engine)."""
        return self._model() is not None or self._local.available

    def _engine_key(self) -> str | None:
        """The cache's name for the engine in use (as `transcribe` keys it)."""
        ref = self._model()
        if ref is not None:
            return f"model:{ref}"
        return self._local.key if self._local.available else None

    def known(self, hashes: Sequence[str]) -> list[str | None]:
        """What the engine in use read in these images before (by image hash), without
        reading any: None for an image it has not read (or when there is no engine).
        Blocking (a file each): for a worker thread."""
        engine_key = self._engine_key()
        if engine_key is None:
            return [None] * len(hashes)
        return [self._cache.get(engine_key, h) for h in hashes]

    async def transcribe(self, images: Sequence[OcrImage]) -> OcrOutcome:
        """The text in each image. Raises `OcrUnavailable` when no engine is set up and
        `OcrError` when the engine fails; cancellation stops a running engine."""
        ref = self._model()
        if ref is None and not self._local.available:
            raise OcrUnavailable()
        label = ref.model if ref is not None else tr(self._local.label)
        engine_key = f"model:{ref}" if ref is not None else self._local.key
        if not images:
            return OcrOutcome((), label)
        cached = await asyncio.to_thread(self._cache.get_many, engine_key, images)
        missing = [i for i, text in enumerate(cached) if text is None]
        if missing:
            todo = [images[i] for i in missing]
            if ref is not None:
                fresh = await self._with_model(ref, todo)
            else:
                fresh = await self._local.transcribe([image.data for image in todo])
            await asyncio.to_thread(self._cache.put_many, engine_key, todo, fresh)
            for index, text in zip(missing, fresh, strict=True):
                cached[index] = text
        return OcrOutcome(tuple(text or "" for text in cached), label)

    async def _with_model(self, ref: ModelRef, images: Sequence[OcrImage]) -> list[str]:
        """Every image at once (at most a message's worth); the first failure stops the
        rest and is reported with the model's and the image's name."""
        options = self._request_options(ref) if self._request_options is not None else None

        async def one(image: OcrImage) -> str:
            try:
                return await transcribe_with_model(
                    self._provider_for,
                    ref,
                    image.mime,
                    image.data,
                    extra_headers=options.extra_headers if options else None,
                    extra_body=options.extra_body if options else None,
                )
            except (ProviderError, SettingsError) as error:
                raise OcrError(
                    tr(
                        "The OCR model {model} could not read {name}: {error} "
                        "(choose another OCR model, or “None — use the local engine”, in "
                        "{place})."
                    ).format(
                        model=ref.model, name=image.name, error=error, place=tr(SETTINGS_PLACE)
                    )
                ) from error

        try:
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(one(image)) for image in images]
        except BaseExceptionGroup as failures:  # the first failure, as itself
            first = failures.exceptions[0]
            raise first from first.__cause__
        return [task.result() for task in tasks]


class _Cache:
    """Transcriptions on disk, one JSON file per (engine, image hash); a file that cannot
    be read is a miss, and a write that fails only costs reading the image again."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder

    def _path(self, engine_key: str, sha256: str) -> Path:
        name = hashlib.sha256(f"{engine_key}\n{sha256}".encode()).hexdigest()
        return self._folder / f"{name}.json"

    def get_many(self, engine_key: str, images: Sequence[OcrImage]) -> list[str | None]:
        return [self.get(engine_key, image.sha256) for image in images]

    def get(self, engine_key: str, sha256: str) -> str | None:
        try:
            data = json.loads(self._path(engine_key, sha256).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or (data.get("engine"), data.get("sha256")) != (
            engine_key,
            sha256,
        ):
            return None
        text = data.get("text")
        return text if isinstance(text, str) else None

    def put_many(self, engine_key: str, images: Sequence[OcrImage], texts: Sequence[str]) -> None:
        for image, text in zip(images, texts, strict=True):
            with contextlib.suppress(OSError):
                self._put(engine_key, image.sha256, text)

    def _put(self, engine_key: str, sha256: str, text: str) -> None:
        """Written beside its final name and renamed, so a crash never leaves half a file."""
        self._folder.mkdir(parents=True, exist_ok=True)
        target = self._path(engine_key, sha256)
        payload = json.dumps({"engine": engine_key, "sha256": sha256, "text": text})
        handle, temporary = tempfile.mkstemp(dir=self._folder, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(payload)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
