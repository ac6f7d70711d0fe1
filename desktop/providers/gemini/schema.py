"""Tool schemas for Gemini: JSON Schema reduced to the OpenAPI subset it accepts.

Gemini refuses a function declaration whose schema uses anything outside its `Schema`
type with HTTP 400, and MCP servers write whatever JSON Schema they like.
"""

from __future__ import annotations

from typing import Any

from desktop.providers.base import ToolSpec

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
