"""OCR through a model that can see: one plain request per image, asking for the text only.

Each image goes on its own so every answer belongs to exactly one image (and is cached
by that image's hash); the instruction asks for the text as it stands, so the model
that later answers the person works from what the image says, not from a summary.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from desktop.core.models import ModelRef, Role
from desktop.providers.base import ChatProvider, ChatRequest, ImageInput, RequestMessage

INSTRUCTION = (
    "Transcribe all text in this image exactly as written, keeping its line breaks and "
    "reading order. Reply with the transcribed text only: no introduction, description, "
    "translation or commentary. If the image contains no text, reply with nothing."
)

ProviderFor = Callable[[str], Awaitable[ChatProvider]]


def ocr_request(
    model: str,
    mime: str,
    data: bytes,
    *,
    extra_headers: Mapping[str, str] | None = None,
    extra_body: Mapping[str, Any] | None = None,
) -> ChatRequest:
    """The request that asks `model` for the text in one image."""
    message = RequestMessage(Role.USER, INSTRUCTION, images=(ImageInput(mime, data),))
    return ChatRequest(
        model=model,
        messages=(message,),
        extra_headers=dict(extra_headers or {}),
        extra_body=dict(extra_body or {}),
    )


async def transcribe_with_model(
    provider_for: ProviderFor,
    ref: ModelRef,
    mime: str,
    data: bytes,
    *,
    extra_headers: Mapping[str, str] | None = None,
    extra_body: Mapping[str, Any] | None = None,
) -> str:
    """The text `ref`'s model reads in the image. Raises what the provider raises
    (`ProviderError`, `SettingsError` for a provider that no longer exists)."""
    provider = await provider_for(ref.provider_id)
    request = ocr_request(ref.model, mime, data, extra_headers=extra_headers, extra_body=extra_body)
    completion = await provider.complete(request)
    return completion.text.strip()
