"""A small JSON-Schema validator (the subset LexMem's prompts use) and JSON extraction.

Supported keywords: ``type`` (a name or a list of names, incl. ``"null"``), ``properties``,
``required``, ``items``, ``enum``, ``minItems``/``maxItems``, ``minLength``, ``minimum``/
``maximum``. ``additionalProperties`` is accepted but not enforced: models like to add a key,
and failing for it would cost a retry for nothing (callers read only the keys they know).
Kept in-house to avoid a dependency for ~80 lines.
"""

from __future__ import annotations

import json
import re
from typing import Any

_TYPE_CHECKS = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    # bool is an int subclass in Python; JSON keeps them apart.
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class SchemaValidationError(ValueError):
    """The JSON does not match the schema; ``errors`` lists every mismatch with its path."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        super().__init__("; ".join(errors[:8]) + (" ..." if len(errors) > 8 else ""))


def schema_errors(instance: Any, schema: dict, path: str = "$") -> list[str]:
    """Every mismatch between ``instance`` and ``schema`` (empty list: valid)."""
    errors: list[str] = []
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else list(types)
        unknown = [n for n in names if n not in _TYPE_CHECKS]
        if unknown:
            raise ValueError(f"unsupported schema type {unknown} at {path}")
        if not any(_TYPE_CHECKS[n](instance) for n in names):
            errors.append(f"{path}: expected {' or '.join(names)}, got {_json_type(instance)}")
            return errors
    if "enum" in schema and instance not in schema["enum"]:
        errors.append(f"{path}: {instance!r} is not one of {list(schema['enum'])}")
    if isinstance(instance, dict):
        for key in schema.get("required", ()):
            if key not in instance:
                errors.append(f"{path}: missing required property {key!r}")
        for key, sub in schema.get("properties", {}).items():
            if key in instance:
                errors += schema_errors(instance[key], sub, f"{path}.{key}")
    elif isinstance(instance, list):
        if "minItems" in schema and len(instance) < schema["minItems"]:
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(instance) > schema["maxItems"]:
            errors.append(f"{path}: more than {schema['maxItems']} items")
        if "items" in schema:
            for i, item in enumerate(instance):
                errors += schema_errors(item, schema["items"], f"{path}[{i}]")
    elif isinstance(instance, str):
        if "minLength" in schema and len(instance.strip()) < schema["minLength"]:
            errors.append(f"{path}: shorter than {schema['minLength']} characters")
    elif isinstance(instance, int | float) and not isinstance(instance, bool):
        if "minimum" in schema and instance < schema["minimum"]:
            errors.append(f"{path}: {instance} is below the minimum {schema['minimum']}")
        if "maximum" in schema and instance > schema["maximum"]:
            errors.append(f"{path}: {instance} is above the maximum {schema['maximum']}")
    return errors


def validate(instance: Any, schema: dict) -> None:
    """Raise :class:`SchemaValidationError` unless ``instance`` matches ``schema``."""
    errors = schema_errors(instance, schema)
    if errors:
        raise SchemaValidationError(errors)


def _json_type(v: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _TYPE_CHECKS[name](v):
            return name
    return type(v).__name__


# Reasoning models (DeepSeek-R1, Qwen3 via Ollama) put their thinking before the answer.
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


def extract_json(text: str) -> Any:
    """The JSON value in a model's answer: the whole text, a fenced block, or the first
    balanced ``{...}`` / ``[...]``. Raises ``ValueError`` (with a short reason) if none parses."""
    if text is None:
        raise ValueError("empty answer")
    cleaned = _THINK.sub("", text).strip()
    if not cleaned:
        raise ValueError("empty answer")
    try:
        return json.loads(cleaned)
    except ValueError:
        pass
    for block in _FENCE.findall(cleaned):
        try:
            return json.loads(block.strip())
        except ValueError:
            continue
    for start, ch in enumerate(cleaned):
        if ch in "{[":
            end = _balanced_end(cleaned, start)
            if end is not None:
                try:
                    return json.loads(cleaned[start : end + 1])
                except ValueError:
                    continue
    raise ValueError("no JSON object found in the answer")


def _balanced_end(s: str, start: int) -> int | None:
    """Index of the bracket closing the one at ``start``, skipping string literals."""
    depth = 0
    in_str = False
    escaped = False
    for i in range(start, len(s)):
        c = s[i]
        if in_str:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i
    return None
