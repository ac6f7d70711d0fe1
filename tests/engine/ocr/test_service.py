"""OCR for models without vision: the configured vision model over a real loopback
server, the local engine, the cache by image hash, and the error when there is none."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest

from desktop.core.errors import SettingsError
from desktop.core.models import ModelRef
from desktop.engine.ocr.local_engine import LocalOcrEngine, OcrError
from desktop.engine.ocr.service import OcrImage, OcrOutcome, OcrService, OcrUnavailable
from desktop.engine.ocr.vision_model import INSTRUCTION
from desktop.engine.prompt.request_builder import RequestOptions
from desktop.providers.adapter import HttpAdapter
from tests.support.adapters import openai_chat_adapter
from tests.support.ocr_images import ocr_image, text_image
from tests.support.sse_server import (
    RecordedRequest,
    SSEServer,
    completion_body,
    error_response,
    json_response,
)

VISION = ModelRef("local", "vision-model")
NOT_INSTALLED = LocalOcrEngine(modules=("parley_no_such_module",))
# Would fail if it ever ran: loading the models alone takes longer than this.
TOO_SLOW_TO_RUN = LocalOcrEngine(timeout_s=0.001)


def transcribe(
    server: SSEServer,
    cache: Path,
    images: Sequence[OcrImage],
    *,
    model: ModelRef | None = VISION,
    local: LocalOcrEngine = NOT_INSTALLED,
    options: RequestOptions | None = None,
) -> OcrOutcome:
    """One `OcrService.transcribe` with providers talking to `server`."""

    async def main() -> OcrOutcome:
        async with httpx.AsyncClient(trust_env=False) as client:

            async def provider_for(provider_id: str) -> HttpAdapter:
                if provider_id != "local":
                    raise SettingsError("providers", f"no provider with id {provider_id!r}")
                return openai_chat_adapter(client, server.base_url)

            service = OcrService(
                cache,
                lambda: model,
                provider_for,
                local,
                request_options=(lambda _ref: options) if options else None,
            )
            return await asyncio.wait_for(service.transcribe(images), 60)

    return asyncio.run(main())


def answer_by_image(texts: dict[bytes, str]):  # type: ignore[no-untyped-def]
    """A responder that answers each request with the text for the image it carries."""

    def respond(request: RecordedRequest):  # type: ignore[no-untyped-def]
        url = request.json["messages"][0]["content"][1]["image_url"]["url"]
        data = base64.b64decode(url.split(",", 1)[1])
        return json_response(completion_body(f"  {texts[data]}\n"))

    return respond


def test_the_vision_model_is_sent_each_image_with_the_instruction(sse_server, tmp_path):
    first, second = text_image("One"), text_image("Two")
    sse_server.route(answer_by_image({first: "First page", second: "Second page"}))
    options = RequestOptions(extra_headers={"X-Team": "ocr"}, extra_body={"seed": 7})

    outcome = transcribe(
        sse_server, tmp_path, [ocr_image(first, "a.png"), ocr_image(second)], options=options
    )

    assert outcome == OcrOutcome(("First page", "Second page"), "vision-model")
    assert len(sse_server.requests) == 2
    for request in sse_server.requests:
        body = request.json
        assert body["model"] == "vision-model"
        assert body["seed"] == 7 and request.headers["x-team"] == "ocr"
        [message] = body["messages"]
        assert message["role"] == "user"
        text, image = message["content"]
        assert text == {"type": "text", "text": INSTRUCTION}
        assert image["image_url"]["url"].startswith("data:image/png;base64,")
    sent = {r.json["messages"][0]["content"][1]["image_url"]["url"] for r in sse_server.requests}
    assert sent == {
        "data:image/png;base64," + base64.b64encode(data).decode() for data in (first, second)
    }


def test_a_cached_image_is_not_sent_to_the_model_again(sse_server, tmp_path):
    first, second = text_image("One"), text_image("Two")
    sse_server.route(answer_by_image({first: "First page", second: "Second page"}))
    transcribe(sse_server, tmp_path, [ocr_image(first)])
    assert len(sse_server.requests) == 1

    again = transcribe(sse_server, tmp_path, [ocr_image(first, "same.png")])
    assert again.texts == ("First page",)
    assert len(sse_server.requests) == 1  # read from the cache

    both = transcribe(sse_server, tmp_path, [ocr_image(second), ocr_image(first)])
    assert both.texts == ("Second page", "First page")
    assert len(sse_server.requests) == 2  # only the new image was sent

    other_model = ModelRef("local", "another-vision-model")
    transcribe(sse_server, tmp_path, [ocr_image(first)], model=other_model)
    assert len(sse_server.requests) == 3  # another engine's reading is its own
    assert sse_server.requests[-1].json["model"] == "another-vision-model"


def test_an_unreadable_cache_file_is_read_again(sse_server, tmp_path):
    image = text_image("One")
    sse_server.route(answer_by_image({image: "First page"}))
    transcribe(sse_server, tmp_path, [ocr_image(image)])
    [cached] = list(tmp_path.iterdir())
    cached.write_text("{not json", encoding="utf-8")
    assert transcribe(sse_server, tmp_path, [ocr_image(image)]).texts == ("First page",)
    assert len(sse_server.requests) == 2


def test_a_failing_model_is_reported_and_nothing_falls_back(sse_server, tmp_path):
    sse_server.enqueue(error_response(401, "Incorrect API key provided."))
    with pytest.raises(OcrError) as caught:
        # The local engine is installed, but the person chose the model.
        transcribe(
            sse_server, tmp_path, [ocr_image(text_image("One"), "scan.png")], local=TOO_SLOW_TO_RUN
        )
    message = str(caught.value)
    assert message.startswith("The OCR model vision-model could not read scan.png:")
    assert "Incorrect API key provided." in message
    assert "Settings → OCR" in message
    assert list(tmp_path.iterdir()) == []  # a failure is not cached


def test_a_model_whose_provider_is_gone_is_reported(sse_server, tmp_path):
    with pytest.raises(OcrError, match=r"could not read scan\.png: providers: no provider"):
        transcribe(
            sse_server, tmp_path, [ocr_image(text_image("One"))], model=ModelRef("gone", "m")
        )
    assert sse_server.requests == []


@pytest.mark.slow
def test_without_a_model_the_local_engine_reads_and_its_reading_is_cached(sse_server, tmp_path):
    image = ocr_image(text_image("Meeting at noon"))
    outcome = transcribe(sse_server, tmp_path, [image], model=None, local=LocalOcrEngine())
    assert outcome == OcrOutcome(("Meeting at noon",), "local engine")

    cached = transcribe(sse_server, tmp_path, [image], model=None, local=TOO_SLOW_TO_RUN)
    assert cached == outcome
    assert sse_server.requests == []


def test_with_no_model_and_no_local_engine_ocr_is_unavailable(sse_server, tmp_path):
    with pytest.raises(OcrUnavailable) as caught:
        transcribe(sse_server, tmp_path, [ocr_image(text_image("One"))], model=None)
    assert str(caught.value) == (
        "This model cannot see images, and Parley has no OCR to read them: choose an OCR "
        "model in Settings → OCR, or install Parley's local OCR engine: "
        "pip install 'parley[ocr]'. Nothing was sent."
    )
    assert sse_server.requests == []
