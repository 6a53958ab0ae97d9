"""Input from outside the engine: the size limits, seeds, plain JSON data and its schemas.

The public entry points (``sloth_kernel.core``) check what they are given here, once, at the
boundary; nothing here runs on the search's hot path. Every limit is documented in the
"Errors" in docs/protocol.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Protocol

import fastjsonschema

from sloth_kernel.errors import ConfigError, SlothKernelError, plural, shorten

# --- the limits (docs/protocol.md, "Errors") -----------------------------------------------

MAX_MOVE_TEXT = 100
"""Characters in one move's text (``play``, ``explain``, a record's moves, a table's stored moves), for
every game: the one move-text limit (the longest real move is about 20)."""
DEFAULT_MAX_MOVES = 10_000
"""Moves a record may hold, for a game whose spec sets no ``max_length`` of its own."""
MAX_RECORD_TEXT = 1_000_000
"""Characters of a record given as JSON text (about 1 MB); checked before parsing."""
MAX_DEPTH = 20
"""Nesting of objects and arrays in a record or a deal."""
MAX_JSON_VALUES = 200_000
"""Values (objects, arrays, strings, numbers...) in a record or a deal."""
MAX_JSON_CHARS = MAX_RECORD_TEXT
"""Characters of all the strings (keys included) in a record or a deal given as data."""
MAX_JSON_INT = 2**256
"""Whole numbers in a record or a deal lie strictly between -MAX_JSON_INT and MAX_JSON_INT."""
SEED_LIMIT = 2**256
"""Seeds are whole numbers from 0 to SEED_LIMIT - 1."""
MAX_OPTION_ITEMS = 256
"""Items in a list option (e.g. a deck's card counts)."""
MAX_OPTION_INT = 10_000
"""Whole-number options (and the items of list options) lie from -MAX_OPTION_INT to MAX_OPTION_INT."""
MAX_OPTION_TEXT = 200
"""Characters of a text option."""


# --- seeds ------------------------------------------------------------------------------------


class _ErrorClass(Protocol):
    def __call__(self, message: str, *, path: str = ..., value: str | None = ...) -> SlothKernelError: ...


def _config_error(message: str, *, path: str = "", value: str | None = None) -> SlothKernelError:
    return ConfigError(message, value=value)


def check_seed(seed: Any, error: _ErrorClass = _config_error, *, path: str = "seed") -> int:
    """`seed` as an int, if it is a whole number from 0 to 2**256 - 1; else the typed `error`.

    ``bool`` is refused (True is not a seed), and so is every other type: a float, a string,
    a list. A subclass of int is read as the int it is equal to.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        kind = "True and False are not seeds" if isinstance(seed, bool) else f"a {type(seed).__name__}"
        raise error(
            f"a seed must be a whole number from 0 to 2**256 - 1, not {shorten(seed)} ({kind})",
            path=path,
            value=shorten(seed),
        )
    if not 0 <= seed < SEED_LIMIT:
        raise error(f"a seed must be from 0 to 2**256 - 1, not {shorten(seed)}", path=path, value=shorten(seed))
    return int(seed)


# --- plain JSON data --------------------------------------------------------------------------

_Path = tuple[Any, ...]
"""A path into JSON data, built as linked pairs (parent, key) so that no string is made unless needed."""


def path_text(path: _Path | None, root: str) -> str:
    """``("hands", 0)`` under root ``deal`` -> ``deal.hands[0]``."""
    keys: list[Any] = []
    while path:
        path, key = path
        keys.append(key)
    parts = [root]
    for key in reversed(keys):
        if isinstance(key, int):
            parts.append(f"[{key}]")
        elif key.isidentifier() and key.isascii() and len(key) <= 40:
            parts.append(f".{key}")
        else:
            parts.append(f"[{shorten(key, 40)}]")
    if len(parts) > 8:  # a deeply nested path: its start and its end say enough
        parts = [*parts[:4], f"...({len(parts) - 7} more)...", *parts[-3:]]
    return "".join(parts)


def json_copy(value: Any, error: _ErrorClass, root: str) -> Any:
    """A fresh, deep copy of `value` as plain JSON data (dict, list, str, int, float, bool, None).

    Walks iteratively (no recursion, whatever the nesting) within the limits MAX_DEPTH,
    MAX_JSON_VALUES, MAX_JSON_CHARS and MAX_JSON_INT; tuples become lists, every mapping a
    dict with text keys. Anything else raises the typed `error` naming the path from `root`.
    """
    holder: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, int, _Path | None]] = [(value, holder, 0, 0, None)]
    count = 1
    chars = 0
    while stack:
        item, parent, key, depth, path = stack.pop()
        copy: Any
        if item is None or item is True or item is False:
            copy = item
        elif isinstance(item, str):
            chars += len(item)
            if chars > MAX_JSON_CHARS:
                raise error(f"{root} holds more than {MAX_JSON_CHARS:,} characters of text", path=path_text(path, root))
            copy = str(item)
        elif isinstance(item, bool):  # a bool subclass cannot exist; kept for the type checker's sake
            copy = bool(item)
        elif isinstance(item, int):
            if not -MAX_JSON_INT < item < MAX_JSON_INT:
                where = path_text(path, root)
                raise error(f"{where} is a number out of range (beyond 2**256): {shorten(item)}", path=where)
            copy = int(item)
        elif isinstance(item, float):
            if not math.isfinite(item):
                where = path_text(path, root)
                raise error(f"{where} is not a JSON number: {item!r}", path=where, value=repr(item))
            copy = float(item)
        elif isinstance(item, (Mapping, list, tuple)):
            if depth >= MAX_DEPTH:
                where = path_text(path, root)
                raise error(f"{root} is nested more than {MAX_DEPTH} levels deep (at {where})", path=where)
            count += len(item)
            if count > MAX_JSON_VALUES:
                raise error(f"{root} holds more than {MAX_JSON_VALUES:,} values", path=path_text(path, root))
            if isinstance(item, Mapping):
                copy = {}
                for name, inner in item.items():
                    if not isinstance(name, str):
                        where = path_text(path, root)
                        raise error(
                            f"{where} has a key that is not text: {shorten(name)}", path=where, value=shorten(name)
                        )
                    chars += len(name)
                    copy[str(name)] = None
                    stack.append((inner, copy, str(name), depth + 1, (path, str(name))))
            else:
                copy = [None] * len(item)
                stack.extend((inner, copy, index, depth + 1, (path, index)) for index, inner in enumerate(item))
        else:
            where = path_text(path, root)
            raise error(
                f"{where} must be JSON data (an object, array, string, number, true, false or null), "
                f"not a {type(item).__name__}: {shorten(item)}",
                path=where,
                value=shorten(item),
            )
        parent[key] = copy
    if chars > MAX_JSON_CHARS:
        raise error(f"{root} holds more than {MAX_JSON_CHARS:,} characters of text", path=root)
    return holder[0]


def parse_json_text(text: str, error: _ErrorClass, root: str) -> Any:
    """JSON text, at most MAX_RECORD_TEXT characters, parsed; too deep or malformed text raises `error`."""
    if len(text) > MAX_RECORD_TEXT:
        raise error(f"{root} is {len(text):,} characters of text; the limit is {MAX_RECORD_TEXT:,}", path=root)
    try:
        return json.loads(text)
    except RecursionError:
        raise error(f"{root} is nested too deeply to read", path=root) from None
    except ValueError as err:  # malformed JSON, or a number longer than Python reads (int_max_str_digits)
        raise error(f"{root} is not JSON: {shorten(str(err), 120)}", path=root, value=shorten(text)) from None


def freeze(value: Any) -> Any:
    """Plain JSON data made immutable: mappings become read-only proxies, lists tuples (deep)."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(inner) for key, inner in value.items()})
    if isinstance(value, (list, tuple)):
        if all(type(inner) in _SCALARS for inner in value):
            return tuple(value)  # a list of plain values (cards, numbers): the common case, in one step
        return tuple(freeze(inner) for inner in value)
    return value


_SCALARS = frozenset({str, int, float, bool, type(None)})


def thaw(value: Any) -> Any:
    """A fresh, mutable deep copy of frozen data: dicts and lists, ready for JSON."""
    if isinstance(value, Mapping):
        return {key: thaw(inner) for key, inner in value.items()}
    if isinstance(value, (list, tuple)):
        if all(type(inner) in _SCALARS for inner in value):
            return list(value)
        return [thaw(inner) for inner in value]
    return value


# --- schemas ----------------------------------------------------------------------------------

RECORD_SCHEMA = "sloth_kernel:schemas/record-v1.schema.json"
"""The JSON Schema of version 1 records, as a package resource (``package:path``)."""


def load_schema(reference: str) -> dict[str, Any]:
    """The JSON Schema a package-resource reference (``"package:path/in/package.json"``) names."""
    package, _, name = reference.partition(":")
    schema: dict[str, Any] = json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))
    return schema


@cache
def schema_validator(reference: str) -> Callable[[Any], Any]:
    """The compiled validator of one schema: built once per schema, then cached."""
    return fastjsonschema.compile(load_schema(reference))


@cache
def _top_keys(reference: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """A schema's top-level keys and required keys, when it refuses every other key."""
    schema = load_schema(reference)
    if schema.get("additionalProperties") is not False:
        return None
    return tuple(schema.get("properties", {})), tuple(schema.get("required", ()))


def check_schema(data: Any, reference: str, error: _ErrorClass, root: str) -> None:
    """Raise the typed `error` naming the path and the value where `data` leaves the schema.

    Unknown (say misspelt) top-level keys are reported first, with the valid ones.
    """
    keys = _top_keys(reference)
    if keys is not None and isinstance(data, dict):
        valid, required = keys
        unknown = sorted(set(data) - set(valid))
        if unknown:
            missing = [key for key in required if key not in data]
            lacks = f" and lacks {', '.join(missing)}" if missing else ""
            raise error(
                f"{root} has unknown {plural(len(unknown), 'key')} {', '.join(map(shorten, unknown))}{lacks}; valid keys: {', '.join(valid)}",
                path=root,
                value=shorten(unknown[0]),
            )
    try:
        schema_validator(reference)(data)
    except fastjsonschema.JsonSchemaValueException as err:
        message, where = _schema_words(err, root)
        raise error(message, path=where, value=shorten(err.value)) from None


def _schema_words(err: fastjsonschema.JsonSchemaValueException, root: str) -> tuple[str, str]:
    keys: list[Any] = [int(k) if k.isdigit() else k for k in err.path[1:]]
    path: _Path | None = None
    for key in keys:
        path = (path, key)
    where = path_text(path, root)
    definition = err.definition if isinstance(err.definition, dict) else {}
    if err.rule == "additionalProperties" and isinstance(err.value, dict):
        valid = list(definition.get("properties", {}))
        unknown = sorted(set(err.value) - set(valid))
        return (
            f"{where} has unknown {plural(len(unknown), 'key')} {', '.join(map(shorten, unknown))}; valid keys: {', '.join(valid)}",
            where,
        )
    if err.rule == "required" and isinstance(err.value, dict):
        missing = [k for k in definition.get("required", ()) if k not in err.value]
        words = f"{where} lacks the {plural(len(missing), 'key')} {', '.join(missing)}"
        valid = list(definition.get("properties", {}))
        unknown = sorted(set(err.value) - set(valid))
        if unknown and definition.get("additionalProperties") is False:
            words += f" and has unknown {plural(len(unknown), 'key')} {', '.join(map(shorten, unknown))}; valid keys: {', '.join(valid)}"
        return words, where
    said = err.message
    if err.name and said.startswith(err.name):
        said = said[len(err.name) :].strip()
    words = f"{where} {said} (got {shorten(err.value)})"
    if definition.get("description"):
        words += f"; {where} is {definition['description']}"
    return words, where
