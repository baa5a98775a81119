"""A small JSON-Schema validator (the subset LexMem's prompts use), tolerant coercion, and JSON
extraction from a model's answer.

Supported keywords: ``type`` (a name or a list of names, incl. ``"null"``), ``properties``,
``required``, ``items``, ``enum``, ``minItems``/``maxItems``, ``minLength``, ``minimum``/
``maximum``. ``additionalProperties`` is accepted but not enforced: models like to add a key,
and failing for it would cost a retry for nothing (callers read only the keys they know).
Kept in-house to avoid a dependency for ~80 lines.

:func:`conform` is what the structured-output chain uses: it first repairs what a careless
model gets wrong in an unambiguous way — driven by the schema alone, so every step gets it —
then validates. What it repairs is reported (and ends up in a job's error text if the answer
still fails); what is ambiguous is left for the validator to reject:

- ``"1"``, ``" 1 "``, ``"[1]"``, ``"#1"`` for an integer (the neighbour lists show ``[1]``),
  ``"8999.5"`` for a number, ``"true"``/``"是"`` for a boolean; never ``"1.5"`` for an
  integer nor ``"1 or 2"``;
- ``"null"``/``"none"``/``""``/``"无"`` for a nullable value that cannot be a string;
- an enum value in another case (``update``), with stray quotes or Markdown stars, or a
  registered synonym in Chinese or English (``MODIFY``, ``更新``); a word registered for two
  values of the same enum is not guessed;
- a comma / 、 / ； separated string (or a JSON array in a string) for an array of strings;
- a missing property that may be null (→ null) or a missing list with no minimum (→ ``[]``),
  ``null`` for such a list;
- a number where text is expected (``8999`` → ``"8999"``);
- a bare list where the schema wants an object whose only required property is that list.

Synonyms are registered per canonical value (:func:`register_synonyms`) by the layer that owns
the vocabulary (the memory steps register their actions, categories and scopes).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from desktop_app.core.errors import InvalidAnswerError, SchemaValidationError

__all__ = [
    "SchemaValidationError",
    "conform",
    "extract_json",
    "register_synonyms",
    "schema_errors",
    "validate",
    "wire_schema",
]

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

#: How much of a model's value an error message quotes (it may be long, or private).
_QUOTE_CHARS = 40


def _quote(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _QUOTE_CHARS else text[: _QUOTE_CHARS - 1] + "…"


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
        errors.append(f"{path}: {_quote(instance)} is not one of {list(schema['enum'])}")
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


def wire_schema(schema: Any) -> Any:
    """The schema as sent to the endpoint: without LexMem's own ``x-…`` annotations."""
    if isinstance(schema, dict):
        return {k: wire_schema(v) for k, v in schema.items() if not str(k).startswith("x-")}
    if isinstance(schema, list):
        return [wire_schema(v) for v in schema]
    return schema


# --------------------------------------------------------------------------------------------
# Synonyms

_synonyms_lock = threading.Lock()
_SYNONYMS: dict[str, frozenset[str]] = {}


def register_synonyms(canonical: str, words: Iterable[str]) -> None:
    """Let ``words`` (any case) stand for the enum value ``canonical`` wherever it is allowed."""
    folded = frozenset(_fold(w) for w in words if _fold(w))
    with _synonyms_lock:
        _SYNONYMS[canonical] = _SYNONYMS.get(canonical, frozenset()) | folded


def _fold(word: str) -> str:
    return re.sub(r"[\s_\-]+", " ", word.strip().strip("\"'`*“”‘’「」。.!！")).casefold()


# --------------------------------------------------------------------------------------------
# Coercion

_INT = re.compile(r"^[\[(（#]?\s*([+-]?\d+)\s*[\])）]?$")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_NULL_WORDS = frozenset({"", "null", "none", "nil", "n/a", "无", "空"})
_TRUE_WORDS = frozenset({"true", "yes", "是", "对"})
_FALSE_WORDS = frozenset({"false", "no", "否", "不是"})
_LIST_SEPARATORS = re.compile(r"\s*[,，、;；\n]\s*")


def conform(
    instance: Any, schema: dict, *, synonyms: Mapping[str, Iterable[str]] | None = None
) -> tuple[Any, list[str]]:
    """``(value, coercions)``: ``instance`` repaired where that is unambiguous, then validated.

    Raises :class:`SchemaValidationError` (which lists the coercions too) if the repaired value
    still does not match. ``synonyms`` replaces the registered ones (tests, special steps).
    """
    if synonyms is None:
        with _synonyms_lock:
            table = dict(_SYNONYMS)
    else:
        table = {k: frozenset(_fold(w) for w in v) for k, v in synonyms.items()}
    notes: list[str] = []
    value = _coerce(instance, schema, "$", notes, table)
    errors = schema_errors(value, schema)
    if errors:
        raise SchemaValidationError(errors, notes)
    return value, notes


def _types(schema: dict) -> list[str]:
    t = schema.get("type")
    if t is None:
        return []
    return [t] if isinstance(t, str) else list(t)


def _coerce(
    value: Any, schema: dict, path: str, notes: list[str], table: dict[str, frozenset[str]]
) -> Any:
    types = _types(schema)
    if types and not any(_TYPE_CHECKS[n](value) for n in types if n in _TYPE_CHECKS):
        value = _coerce_type(value, schema, types, path, notes)
    if "enum" in schema and value not in schema["enum"] and isinstance(value, str):
        value = _coerce_enum(value, schema["enum"], path, notes, table)
    if isinstance(value, dict):
        return _coerce_object(value, schema, path, notes, table)
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [
            _coerce(v, schema["items"], f"{path}[{i}]", notes, table) for i, v in enumerate(value)
        ]
    return value


def _coerce_type(value: Any, schema: dict, types: list[str], path: str, notes: list[str]) -> Any:
    if isinstance(value, str):
        text = value.strip()
        if "null" in types and "string" not in types and text.casefold() in _NULL_WORDS:
            notes.append(f"{path}: {_quote(value)} → null")
            return None
        if "integer" in types and (m := _INT.match(text)):
            notes.append(f"{path}: {_quote(value)} → {int(m.group(1))}")
            return int(m.group(1))
        if "number" in types and _NUMBER.match(text):
            number = float(text)
            number = int(number) if number.is_integer() and "." not in text else number
            notes.append(f"{path}: {_quote(value)} → {number}")
            return number
        if "boolean" in types and text.casefold() in _TRUE_WORDS | _FALSE_WORDS:
            notes.append(f"{path}: {_quote(value)} → {text.casefold() in _TRUE_WORDS}")
            return text.casefold() in _TRUE_WORDS
        if "array" in types and _is_text_list(schema):
            return _split_list(text, path, notes)
    elif value is None and "array" in types and not schema.get("minItems"):
        notes.append(f"{path}: null → []")
        return []
    elif isinstance(value, int | float) and not isinstance(value, bool) and "string" in types:
        notes.append(f"{path}: number {value} → text")
        return str(value)
    elif isinstance(value, list) and "object" in types:
        wrapper = _single_list_property(schema)
        if wrapper is not None:
            notes.append(f"{path}: a bare list → {{{wrapper!r}: [...]}}")
            return {wrapper: value}
    return value


def _is_text_list(schema: dict) -> bool:
    items = schema.get("items")
    return isinstance(items, dict) and "string" in _types(items)


def _split_list(text: str, path: str, notes: list[str]) -> Any:
    if text.startswith("["):
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if isinstance(parsed, list):
            notes.append(f"{path}: a JSON array written as text → a list")
            return parsed
    items = [p for p in _LIST_SEPARATORS.split(text) if p]
    notes.append(f"{path}: one text → a list of {len(items)}")
    return items


def _single_list_property(schema: dict) -> str | None:
    required = list(schema.get("required", ()))
    props = schema.get("properties", {})
    if len(required) == 1 and "array" in _types(props.get(required[0], {})):
        return required[0]
    return None


def _coerce_enum(
    value: str, allowed: list[Any], path: str, notes: list[str], table: dict[str, frozenset[str]]
) -> Any:
    folded = _fold(value)
    matches = [a for a in allowed if isinstance(a, str) and _fold(a) == folded]
    if not matches:
        matches = [a for a in allowed if isinstance(a, str) and folded in table.get(a, ())]
    if len(matches) == 1:
        notes.append(f"{path}: {_quote(value)} → {matches[0]!r}")
        return matches[0]
    return value  # unknown or ambiguous: the validator says so


def _coerce_object(
    value: dict, schema: dict, path: str, notes: list[str], table: dict[str, frozenset[str]]
) -> dict:
    props = schema.get("properties", {})
    out = dict(value)
    for key in schema.get("required", ()):
        if key in out or key not in props:
            continue
        sub = props[key]
        types = _types(sub)
        if "null" in types:
            out[key] = None
            notes.append(f"{path}: missing {key!r} → null")
        elif types == ["array"] and not sub.get("minItems"):
            out[key] = []
            notes.append(f"{path}: missing {key!r} → []")
    for key, sub in props.items():
        if key in out:
            out[key] = _coerce(out[key], sub, f"{path}.{key}", notes, table)
    return out


# --------------------------------------------------------------------------------------------
# Extraction


def extract_json(text: str) -> Any:
    """The JSON value in a model's answer: the whole text, a fenced block, or the first
    balanced ``{...}`` / ``[...]``, after any reasoning (``<think>…</think>``) is removed.

    Raises :class:`InvalidAnswerError` (a ``ValueError``) with a short reason if none parses,
    including for JSON nested too deeply to decode.
    """
    from .reasoning import split_reasoning

    if text is None:
        raise InvalidAnswerError("empty answer")
    cleaned = split_reasoning(text)[0].strip()
    if not cleaned:
        raise InvalidAnswerError("empty answer")
    too_deep = False
    candidates = [cleaned, *(b.strip() for b in _FENCE.findall(cleaned))]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except RecursionError:
            too_deep = True
            continue
        except ValueError:
            continue
        # a structured answer is an object or a list: '"{}"' parses as the string "{}", the
        # object the model meant is inside it (found below)
        if isinstance(value, dict | list):
            return value
    starts = [i for i, ch in enumerate(cleaned) if ch in "{["][:_MAX_STARTS]
    for start in starts:
        end = _balanced_end(cleaned, start)
        if end is None:
            continue
        try:
            return json.loads(cleaned[start : end + 1])
        except RecursionError:
            too_deep = True
            break
        except ValueError:
            continue
    if too_deep:
        raise InvalidAnswerError("the JSON is nested too deeply to read")
    raise InvalidAnswerError("no JSON object found in the answer")


_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


#: Brackets tried as the start of the JSON in prose: each try scans to the end of the text, so
#: an answer of 100 000 unbalanced brackets must not cost 100 000 scans.
_MAX_STARTS = 64


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
