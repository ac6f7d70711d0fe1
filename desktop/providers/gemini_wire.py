"""Google Gemini (`generateContent` / `streamGenerateContent`) wire format: request bodies
and response translation.

Pure functions and a small stateful translator, with no I/O, so every Gemini quirk
(thought parts, thought signatures, whole function calls, safety stops) is tested
without a network.

Thought signatures
------------------
Gemini attaches an opaque `thoughtSignature` to parts of its answer and wants each back,
unchanged, on the part it came on when the conversation continues; Gemini 3 refuses a
tool continuation (HTTP 400) when the first function call of any step of the turn lacks
its signature. Google's rules (ai.google.dev, "Thought signatures"):

- in a step that calls functions, the signature sits on the first `functionCall` part
  (parallel calls included: only the first carries one);
- in a step without calls it sits on the last part; sending it back is recommended;
- when streaming, it may arrive on a part of its own, with empty text (or none), in the
  last chunk (Google's own SDKs put such a signature on the part before it).

Parley keeps every signature the wire carries. Each model step yields `ReasoningSignature`
events carrying all of the step's signatures so far, the latest replacing the earlier:
in the common case of one signature in its usual place (the first call, or the last
part of a step without calls), the signature itself; otherwise `PARTS_PREFIX` + a JSON
list saying where each came: `{"on": "call", "index": i}` (the step's i-th call),
`{"on": "text"}` (its text) or `{"on": "end"}` (a part without text, or a thought). A
call's signature goes out as soon as the call arrives, the others at the end of the step.
The engine keeps the value on the step's reasoning part and hands it back as
`RequestMessage.reasoning_signature`; `build_body` puts each signature back where it
came: a call's on that call, the text's on the text part, one that came on a part of its
own on the first call when that has none (where Gemini validates it), else on the last
part, else (that place taken too) on an empty text part of its own, as it came. Each
assistant `RequestMessage` is one model step: a step's signatures belong to that step
alone. When a Gemini 3 model sees calls whose first has no signature (a conversation
begun with another model) the documented placeholder that skips validation
is sent instead, so the history stays usable.
"""

from __future__ import annotations

import base64
import json
import re
import uuid
from collections.abc import Callable
from enum import Enum
from typing import Any

from desktop.core.capabilities import ReasoningEffort, ReportedCapabilities
from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.models import Role, Usage
from desktop.providers.base import ChatRequest, Completion, RequestMessage, ToolCall, ToolSpec
from desktop.providers.http_errors import BROKEN, text_or_empty, trim
from desktop.providers.sse import ServerSentEvent, json_data

Redactor = Callable[[str], str]

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
API_VERSION = "v1beta"
# Gemini rarely names its calls; ids made up here carry this prefix and are not sent back.
GENERATED_CALL_PREFIX = "gemini-call-"
# Documented by Google for function calls that have no signature of their own.
SKIP_SIGNATURE = "skip_thought_signature_validator"
# A step's signatures with where each came, when there is more than one or one is not
# where Gemini usually puts it (see the module docstring).
PARTS_PREFIX = "gemini-parts:"


def api_root(base_url: str) -> str:
    """`https://host/v1beta` whether or not the person typed the version."""
    root = base_url.strip().rstrip("/") or DEFAULT_BASE_URL
    if re.search(r"/v1(alpha|beta)?\d*$", root):
        return root
    return f"{root}/{API_VERSION}"


def model_path(model: str) -> str:
    """`models/x` for a bare id; `tunedModels/x` and `models/x` pass unchanged."""
    return model if "/" in model else f"models/{model}"


def new_call_id() -> str:
    return GENERATED_CALL_PREFIX + uuid.uuid4().hex[:24]


# --- reasoning effort ------------------------------------------------------------------


class ThinkingFamily(Enum):
    NONE = "none"  # no thinking at all: thinkingConfig is refused
    PRO_25 = "pro-2.5"  # budget 128..32768, cannot be turned off
    FLASH_25 = "flash-2.5"  # budget 0..24576
    FLASH_LITE_25 = "flash-lite-2.5"  # budget 0 or 512..24576
    PRO_3 = "pro-3"  # thinkingLevel low | high
    PRO_3X = "pro-3.x"  # thinkingLevel low | medium | high
    FLASH_3 = "flash-3"  # thinkingLevel minimal | low | medium | high
    OTHER = "other"  # unknown: a budget within the common range, never "off"


# First match wins. Aliases ("gemini-flash-latest") take budgets, which newer models
# still accept.
_FAMILIES: tuple[tuple[str, ThinkingFamily], ...] = (
    (
        r"gemini-1\.|gemini-2\.0|gemma|embedding|imagen|veo|aqa|-image|-tts|-live",
        ThinkingFamily.NONE,
    ),
    (r"gemini-3-pro", ThinkingFamily.PRO_3),
    (r"gemini-3\.\d+-pro", ThinkingFamily.PRO_3X),
    (r"gemini-3(\.\d+)?-flash", ThinkingFamily.FLASH_3),
    (r"gemini-2\.5-pro|gemini-pro-latest", ThinkingFamily.PRO_25),
    (r"gemini-2\.5-flash-lite|gemini-flash-lite-latest", ThinkingFamily.FLASH_LITE_25),
    (r"gemini-2\.5-flash|gemini-flash-latest", ThinkingFamily.FLASH_25),
)

_BUDGETS = {
    ReasoningEffort.LOW: 1024,
    ReasoningEffort.MEDIUM: 8192,
    ReasoningEffort.HIGH: 24576,
}
# (smallest budget when thinking is on, largest, what "off" sends)
_BUDGET_RANGE = {
    ThinkingFamily.PRO_25: (128, 32768, 128),
    ThinkingFamily.FLASH_25: (1, 24576, 0),
    ThinkingFamily.FLASH_LITE_25: (512, 24576, 0),
    ThinkingFamily.OTHER: (1, 24576, None),
}
_LEVELS = {
    ThinkingFamily.PRO_3: ("low", "low", "high", "high", "high"),
    ThinkingFamily.PRO_3X: ("low", "low", "medium", "high", "high"),
    ThinkingFamily.FLASH_3: ("minimal", "low", "medium", "high", "high"),
}
_EFFORT_ORDER = tuple(ReasoningEffort)  # off, low, medium, high, max


def thinking_family(model: str) -> ThinkingFamily:
    name = model.rsplit("/", 1)[-1].lower()
    for pattern, family in _FAMILIES:
        if re.search(pattern, name):
            return family
    return ThinkingFamily.OTHER


def thinking_config(model: str, effort: ReasoningEffort | None) -> dict[str, Any] | None:
    """`generationConfig.thinkingConfig` for `effort` on `model`, or None to send none.

    Without an effort the model thinks as it likes, but its thoughts are asked for so the
    person sees them. Gemini 3 takes a level, 2.5 a token budget clamped to what the model
    allows (2.5 Pro cannot stop thinking, so "off" is its smallest budget).
    """
    family = thinking_family(model)
    if family is ThinkingFamily.NONE:
        return None
    if effort is None:
        # Asking a model that cannot think for its thoughts is a 400: unknown models
        # are asked only when their name says Gemini.
        known = family is not ThinkingFamily.OTHER or "gemini" in model.lower()
        return {"includeThoughts": True} if known else None
    if family in _LEVELS:
        level = _LEVELS[family][_EFFORT_ORDER.index(effort)]
        return {"includeThoughts": True, "thinkingLevel": level}
    low, high, off = _BUDGET_RANGE[family]
    if effort is ReasoningEffort.OFF:
        if off is None:
            return None  # unknown model: leave thinking to its default
        return (
            {"thinkingBudget": 0} if off == 0 else {"includeThoughts": True, "thinkingBudget": off}
        )
    wanted = high if effort is ReasoningEffort.MAX else _BUDGETS[effort]
    return {"includeThoughts": True, "thinkingBudget": max(low, min(high, wanted))}


# --- tool schemas ----------------------------------------------------------------------

# The OpenAPI subset Gemini's `Schema` accepts; anything else is refused with HTTP 400.
_SCHEMA_KEYS = frozenset(
    {
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "items",
        "properties",
        "required",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "anyOf",
        "propertyOrdering",
    }
)
_FORMATS = {
    "string": {"enum", "date-time"},
    "integer": {"int32", "int64"},
    "number": {"float", "double"},
}
_MAX_SCHEMA_DEPTH = 12  # a recursive $ref is cut off here


def gemini_schema(schema: Any) -> dict[str, Any]:
    """A JSON Schema reduced to what Gemini accepts.

    `$ref`s into `$defs`/`definitions` are inlined, `["string", "null"]` and an
    `anyOf` with a null branch become `nullable`, `const` becomes a one-value enum,
    `oneOf` becomes `anyOf`, and unsupported keys (`$schema`, `additionalProperties`,
    `default`, `title`, `examples`...) are dropped.
    """
    if not isinstance(schema, dict):
        return {}
    defs: dict[str, Any] = {}
    for key in ("definitions", "$defs"):
        if isinstance(schema.get(key), dict):
            defs.update(schema[key])
    return _clean(schema, defs, 0)


def _clean(schema: Any, defs: dict[str, Any], depth: int) -> dict[str, Any]:
    if not isinstance(schema, dict) or depth > _MAX_SCHEMA_DEPTH:
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = defs.get(ref.rsplit("/", 1)[-1])
        merged = {**(target if isinstance(target, dict) else {}), **schema}
        merged.pop("$ref")
        return _clean(merged, defs, depth + 1)
    schema = dict(schema)
    if "oneOf" in schema and "anyOf" not in schema:
        schema["anyOf"] = schema.pop("oneOf")
    all_of = schema.pop("allOf", None)
    if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
        schema = {**all_of[0], **schema}
    if "const" in schema and "enum" not in schema:
        schema["enum"] = [schema["const"]]
    out: dict[str, Any] = {}
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        if len(kinds) < len(kind):
            out["nullable"] = True
        kind = kinds[0] if kinds else None
    if isinstance(kind, str):
        out["type"] = kind
    for key, value in schema.items():
        if key not in _SCHEMA_KEYS or key in ("type", "nullable"):
            continue
        if key == "properties" and isinstance(value, dict):
            props = {n: _clean(s, defs, depth + 1) for n, s in value.items()}
            if props:
                out["properties"] = props
        elif key == "items":
            first = value[0] if isinstance(value, list) and value else value
            out["items"] = _clean(first, defs, depth + 1)
        elif key == "anyOf" and isinstance(value, list):
            branches = [b for b in value if not (isinstance(b, dict) and b.get("type") == "null")]
            if len(branches) < len(value):
                out["nullable"] = True
            cleaned = [_clean(b, defs, depth + 1) for b in branches]
            if len(cleaned) == 1:
                out = {**cleaned[0], **out}
            elif cleaned:
                out["anyOf"] = cleaned
        elif key == "enum":
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                out["enum"] = list(value)
        elif key == "format":
            if isinstance(kind, str) and value in _FORMATS.get(kind, ()):
                out["format"] = value
        elif key == "required":
            names = schema.get("properties")
            if isinstance(value, list) and isinstance(names, dict):
                present = [n for n in value if n in names]
                if present:
                    out["required"] = present
        else:
            out[key] = value
    if schema.get("nullable") is True:
        out["nullable"] = True
    if "enum" in out and "type" not in out:
        out["type"] = "string"  # Gemini allows enums on strings only
    return out


def function_declaration(tool: ToolSpec) -> dict[str, Any]:
    """A tool as Gemini declares it; a tool without parameters sends none (an object
    schema with no properties is refused)."""
    declaration: dict[str, Any] = {"name": tool.name, "description": tool.description}
    parameters = gemini_schema(tool.parameters)
    if parameters.get("type") != "object" or parameters.get("properties"):
        declaration["parameters"] = parameters
    return declaration


# --- request ---------------------------------------------------------------------------


def call_args(arguments: str) -> dict[str, Any]:
    """Our stored JSON text as the object Gemini wants. Text that is not a JSON object
    (a model can write broken JSON) goes back as `{"_raw": text}`, so the model sees
    what it sent instead of the request failing."""
    text = arguments.strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"_raw": arguments}
    return value if isinstance(value, dict) else {"_raw": arguments}


def _function_call(call: ToolCall) -> dict[str, Any]:
    body: dict[str, Any] = {"name": call.name, "args": call_args(call.arguments)}
    if call.call_id and not call.call_id.startswith(GENERATED_CALL_PREFIX):
        body["id"] = call.call_id
    return {"functionCall": body}


def signature_value(signatures: list[dict[str, Any]], calls: int) -> str:
    """A step's signatures as one `ReasoningSignature` value (see the module docstring)."""
    if len(signatures) == 1:
        only = signatures[0]
        usual = only.get("index") == 0 if only["on"] == "call" else calls == 0
        if usual or only["on"] == "end":
            return str(only["signature"])
    return PARTS_PREFIX + json.dumps(signatures, separators=(",", ":"))


def stored_signatures(value: str | None) -> list[dict[str, Any]]:
    """A `ReasoningSignature` value back as a list of `{"on", "index"?, "signature"}`;
    a plain value came where Gemini usually puts it, so it counts as `"end"`."""
    if not value:
        return []
    if not value.startswith(PARTS_PREFIX):
        return [{"on": "end", "signature": value}]
    try:
        items = json.loads(value[len(PARTS_PREFIX) :])
    except json.JSONDecodeError:
        return []
    return [
        item
        for item in (items if isinstance(items, list) else ())
        if isinstance(item, dict) and isinstance(item.get("signature"), str) and item["signature"]
    ]


def _model_turn(message: RequestMessage, family: ThinkingFamily) -> dict[str, Any] | None:
    text = {"text": message.text} if message.text else None
    calls = [_function_call(call) for call in message.tool_calls]
    parts = ([text] if text else []) + calls
    if not parts:
        return None
    for item in stored_signatures(message.reasoning_signature):
        index = item.get("index")
        if item["on"] == "call" and isinstance(index, int) and 0 <= index < len(calls):
            target = calls[index]
        elif item["on"] == "text" and text is not None:
            target = text
        elif calls and "thoughtSignature" not in calls[0]:
            target = calls[0]  # where Gemini validates a step's signature
        elif "thoughtSignature" not in parts[-1]:
            target = parts[-1]
        else:
            target = {"text": ""}  # its place is taken: back as it came, a part of its own
            parts.append(target)
        target["thoughtSignature"] = item["signature"]
    if calls and "thoughtSignature" not in calls[0] and family in _LEVELS:
        calls[0]["thoughtSignature"] = SKIP_SIGNATURE
    return {"role": "model", "parts": parts}


def _results_turn(message: RequestMessage) -> dict[str, Any] | None:
    ids = {call.call_id for call in message.tool_calls}
    parts: list[dict[str, Any]] = []
    for result in message.tool_results:
        response: dict[str, Any] = {
            "name": result.name,
            "response": {"error" if result.is_error else "result": result.content},
        }
        if result.call_id in ids and not result.call_id.startswith(GENERATED_CALL_PREFIX):
            response["id"] = result.call_id
        parts.append({"functionResponse": response})
    return {"role": "user", "parts": parts} if parts else None


def _user_turn(message: RequestMessage) -> dict[str, Any] | None:
    # Google advises the images first and the question after them.
    parts: list[dict[str, Any]] = [
        {
            "inlineData": {
                "mimeType": image.mime,
                "data": base64.b64encode(image.data).decode("ascii"),
            }
        }
        for image in message.images
    ]
    if message.text:
        parts.append({"text": message.text})
    return {"role": "user", "parts": parts} if parts else None


def build_body(request: ChatRequest) -> dict[str, Any]:
    """The JSON body (the same for streaming and not: the URL differs). Optional
    parameters are sent only when set, so the server's defaults hold."""
    family = thinking_family(request.model)
    system: list[str] = [request.system] if request.system else []
    contents: list[dict[str, Any]] = []
    for message in request.messages:
        if message.role is Role.SYSTEM:
            if message.text:
                system.append(message.text)
            continue
        if message.role is Role.ASSISTANT:
            turns = [_model_turn(message, family), _results_turn(message)]
        else:
            turns = [_user_turn(message)]
        contents += [turn for turn in turns if turn is not None]
    body: dict[str, Any] = {"contents": contents}
    if system:
        body["systemInstruction"] = {"parts": [{"text": text} for text in system]}
    if request.tools:
        declarations = [function_declaration(tool) for tool in request.tools]
        body["tools"] = [{"functionDeclarations": declarations}]
    config: dict[str, Any] = {}
    if request.temperature is not None:
        config["temperature"] = request.temperature
    if request.top_p is not None:
        config["topP"] = request.top_p
    if request.max_output_tokens is not None:
        config["maxOutputTokens"] = request.max_output_tokens
    thinking = thinking_config(request.model, request.reasoning_effort)
    if thinking is not None:
        config["thinkingConfig"] = thinking
    if config:
        body["generationConfig"] = config
    return body


# --- response translation (pure) -------------------------------------------------------


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def parse_usage(raw: Any) -> Usage | None:
    """Gemini counts thoughts apart from the answer; here, as for OpenAI, output tokens
    include the reasoning tokens."""
    if not isinstance(raw, dict):
        return None
    thoughts = _count(raw.get("thoughtsTokenCount"))
    return Usage(
        input_tokens=_count(raw.get("promptTokenCount")),
        output_tokens=_count(raw.get("candidatesTokenCount")) + thoughts,
        reasoning_tokens=thoughts,
    )


def error_from_payload(error: Any, redact: Redactor) -> ProviderError:
    """An `{"error": {"code", "message", "status"}}` object sent inside a 200 stream."""
    code = error.get("code") if isinstance(error, dict) else None
    status = code if isinstance(code, int) and not isinstance(code, bool) else None
    retryable = status is not None and (status in (408, 409, 429) or status >= 500)
    if isinstance(error, dict):
        message = text_or_empty(error.get("message")) or text_or_empty(error.get("status"))
    else:
        message = text_or_empty(error)
    message = redact(trim(message or tr("unknown error")))
    return ProviderError(
        tr("The server reported an error: {message}").format(message=message),
        status_code=status,
        retryable=retryable,
    )


# Finish reasons that mean the answer was stopped, not completed, worded for people.
_STOPPED = {
    "SAFETY": QT_TR_NOOP("it was flagged by Gemini's safety filters"),
    "RECITATION": QT_TR_NOOP("it too closely repeated existing (possibly copyrighted) material"),
    "LANGUAGE": QT_TR_NOOP("it was in a language Gemini does not support"),
    "BLOCKLIST": QT_TR_NOOP("it contained terms on a blocklist"),
    "PROHIBITED_CONTENT": QT_TR_NOOP("it may contain prohibited content"),
    "SPII": QT_TR_NOOP("it may contain sensitive personal information"),
    "IMAGE_SAFETY": QT_TR_NOOP("an image was flagged by Gemini's safety filters"),
    "IMAGE_PROHIBITED_CONTENT": QT_TR_NOOP("an image may contain prohibited content"),
    "MALFORMED_FUNCTION_CALL": QT_TR_NOOP("Gemini wrote a tool call it could not format"),
    "UNEXPECTED_TOOL_CALL": QT_TR_NOOP("Gemini called a tool although none was offered"),
    "TOO_MANY_TOOL_CALLS": QT_TR_NOOP("Gemini made too many tool calls in a row"),
}
_PROMPT_BLOCKED = {
    "SAFETY": QT_TR_NOOP("it was flagged by Gemini's safety filters"),
    "BLOCKLIST": QT_TR_NOOP("it contains terms on a blocklist"),
    "PROHIBITED_CONTENT": QT_TR_NOOP("it may contain prohibited content"),
    "IMAGE_SAFETY": QT_TR_NOOP("an image in it was flagged by Gemini's safety filters"),
}


class StreamTranslator:
    """Folds `GenerateContentResponse`s into stream events.

    Usage is held back and reported once, before `Finished`, because every chunk repeats
    the running total. A stop for safety (or another refusal) becomes a readable
    `ProviderError` from `finish()`, after the text that did arrive.
    """

    def __init__(
        self,
        redact: Redactor = lambda text: text,
        call_id: Callable[[], str] = new_call_id,
    ) -> None:
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self._redact = redact
        self._new_call_id = call_id
        self._calls = 0
        self._signatures: list[dict[str, Any]] = []  # every one, with where it came
        self._announced = 0  # how many of them a `ReasoningSignature` carried
        self._finish_message = ""

    @property
    def ended(self) -> bool:
        return False  # the finish reason may come before the last usage: read to the end

    @property
    def complete(self) -> bool:
        return self.finish_reason is not None

    def whole(self, payload: Any) -> list[StreamEvent]:
        """A whole answer as JSON: a list of responses (a proxy dropped `alt=sse`)."""
        events: list[StreamEvent] = []
        for item in payload if isinstance(payload, list) else [payload]:
            if not isinstance(item, dict):
                raise ProviderError(tr("The server's answer was not in the expected format"))
            events += self.feed_payload(item)
        if not self.complete:
            raise StreamBrokenError(tr(BROKEN))
        return events + self.finish()

    def feed(self, sse: ServerSentEvent) -> list[StreamEvent]:
        data = sse.data.strip()
        if not data:
            return []
        try:
            payload = json_data(data)
        except json.JSONDecodeError:
            preview = self._redact(trim(data, 120))
            raise StreamBrokenError(
                tr("The server sent a malformed stream chunk (not JSON): {preview}").format(
                    preview=preview
                )
            ) from None
        if not isinstance(payload, dict):
            raise StreamBrokenError(tr("The server sent a malformed stream chunk (not an object)"))
        return self.feed_payload(payload)

    def feed_payload(self, payload: dict[str, Any]) -> list[StreamEvent]:
        if payload.get("error"):
            raise error_from_payload(payload["error"], self._redact)
        self.usage = parse_usage(payload.get("usageMetadata")) or self.usage
        feedback = payload.get("promptFeedback")
        blocked = text_or_empty(feedback.get("blockReason")) if isinstance(feedback, dict) else ""
        if blocked:
            words = _PROMPT_BLOCKED.get(
                blocked, QT_TR_NOOP("it conflicts with Gemini's content policy")
            )
            raise ProviderError(
                tr("Gemini refused the prompt because {reason} ({code})").format(
                    reason=tr(words), code=blocked
                )
            )
        candidates = payload.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            return []
        candidate = candidates[0]
        if not isinstance(candidate, dict):
            return []
        events: list[StreamEvent] = []
        content = candidate.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        for part in parts if isinstance(parts, list) else ():
            if isinstance(part, dict):
                events += self._part(part)
        if reason := text_or_empty(candidate.get("finishReason")):
            self.finish_reason = reason
            self._finish_message = text_or_empty(candidate.get("finishMessage"))
        return events

    def _part(self, part: dict[str, Any]) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        signature = text_or_empty(part.get("thoughtSignature"))
        call = part.get("functionCall")
        if isinstance(call, dict):
            if signature:
                self._signatures.append(
                    {"on": "call", "index": self._calls, "signature": signature}
                )
                events += self._announce()
            args = call.get("args")
            events.append(
                ToolCallDelta(
                    index=self._calls,
                    call_id=text_or_empty(call.get("id")) or self._new_call_id(),
                    name=text_or_empty(call.get("name")),
                    arguments=json.dumps(
                        args if isinstance(args, dict) else {}, ensure_ascii=False
                    ),
                )
            )
            self._calls += 1
            return events
        text = text_or_empty(part.get("text"))
        thought = part.get("thought") is True
        if text:
            events.append(ReasoningDelta(text) if thought else TextDelta(text))
        if signature:
            on = "text" if text and not thought else "end"
            self._signatures.append({"on": on, "signature": signature})
        return events

    def _announce(self) -> list[StreamEvent]:
        """Every signature so far, when some arrived since the last announcement."""
        if len(self._signatures) == self._announced:
            return []
        self._announced = len(self._signatures)
        return [ReasoningSignature(signature_value(self._signatures, self._calls))]

    def finish(self) -> list[StreamEvent]:
        """The closing events: a pending signature, usage, then `Finished` once; or the
        readable error when Gemini stopped the answer instead of completing it."""
        reason = self.finish_reason
        if reason in _STOPPED:
            why = tr(_STOPPED[reason])
            if self._finish_message:
                text = tr("Gemini stopped the answer because {reason} ({code}): {detail}").format(
                    reason=why, code=reason, detail=self._redact(trim(self._finish_message))
                )
            else:
                text = tr("Gemini stopped the answer because {reason} ({code})").format(
                    reason=why, code=reason
                )
            raise ProviderError(text)
        events = self._announce()
        if self.usage:
            events.append(UsageReport(self.usage))
        events.append(Finished(reason))
        return events


def parse_completion(payload: Any, redact: Redactor = lambda text: text) -> Completion:
    """A whole `generateContent` answer (tool calls are only streamed)."""
    if not isinstance(payload, dict):
        raise ProviderError(tr("The server's answer was not a JSON object"))
    translator = StreamTranslator(redact)
    events = translator.feed_payload(payload) + translator.finish()
    return Completion(
        text="".join(e.text for e in events if isinstance(e, TextDelta)),
        reasoning="".join(e.text for e in events if isinstance(e, ReasoningDelta)),
        usage=translator.usage,
        finish_reason=translator.finish_reason,
    )


# --- model list ------------------------------------------------------------------------


def parse_models_page(payload: Any) -> tuple[list[str], str | None]:
    """Chat model ids on one page of `GET /models`, and the next page's token."""
    if not isinstance(payload, dict):
        raise ProviderError(tr("The server's model list was not in the expected format"))
    items = payload.get("models", [])
    if not isinstance(items, list):
        raise ProviderError(tr("The server's model list was not in the expected format"))
    ids: list[str] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        methods = item.get("supportedGenerationMethods")
        if isinstance(methods, list) and "generateContent" not in methods:
            continue
        name = text_or_empty(item.get("name"))
        if name:
            ids.append(name.removeprefix("models/"))
    return ids, text_or_empty(payload.get("nextPageToken")) or None


def parse_model_reports(payload: Any) -> dict[str, ReportedCapabilities]:
    """What one page of `GET /models` says about each model: `inputTokenLimit` is the
    context window and `thinking` whether the model reasons. Vision and tools are not
    stated (every current Gemini model has both; the table says so)."""
    items = payload.get("models") if isinstance(payload, dict) else None
    reports: dict[str, ReportedCapabilities] = {}
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        name = text_or_empty(item.get("name")).removeprefix("models/")
        limit = item.get("inputTokenLimit")
        thinking = item.get("thinking")
        report = ReportedCapabilities(
            reasoning=thinking if isinstance(thinking, bool) else None,
            context_length=limit if isinstance(limit, int) and limit > 0 else None,
        )
        if name and not report.is_empty:
            reports[name] = report
    return reports
