"""Validate rule files against the shipped JSON Schema (`rule.schema.json`).

The schema file is the single source of truth, for editors and for us. Rules are
validated on every load, so instead of importing a full JSON Schema library (slow
to import, for every call) this module interprets the small subset the schema uses:
type, properties, additionalProperties, required, items, enum, minLength, minimum,
anyOf and local $ref. A test checks it agrees with the `jsonschema` package.
"""

from __future__ import annotations

import json
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_PATH = Path(__file__).with_name("rule.schema.json")
_schema: dict[str, Any] | None = None


def rule_schema() -> dict[str, Any]:
    global _schema
    if _schema is None:
        with SCHEMA_PATH.open(encoding="utf-8") as f:
            _schema = json.load(f)
    return _schema


_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _type_ok(value: Any, name: str) -> bool:
    if isinstance(value, bool) and name in ("number", "integer"):
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES[name])


def _resolve(ref: str, root: dict[str, Any]) -> dict[str, Any]:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node  # type: ignore[no-any-return]


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "null"


def validate(value: Any, schema: dict[str, Any] | None = None, path: str = "") -> list[str]:
    """Error messages `field.path: problem`; empty when `value` is valid."""
    root = rule_schema() if schema is None else schema
    errors: list[str] = []
    _check(value, root, root, path, errors)
    return errors


def _check(value: Any, schema: dict[str, Any], root: dict[str, Any], path: str, errors: list[str]) -> None:
    where = path or "rule"
    if "$ref" in schema:
        _check(value, _resolve(schema["$ref"], root), root, path, errors)
        return
    if "anyOf" in schema:
        for option in schema["anyOf"]:
            sub: list[str] = []
            _check(value, option, root, path, sub)
            if not sub:
                return
        errors.append(f'{where}: must be a pattern string or an object like {{"pattern": …}}, not {_describe(value)}')
        return
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(json.dumps(v) for v in schema["enum"])
        errors.append(f"{where}: must be one of {allowed}, not {json.dumps(value)}")
        return
    kind = schema.get("type")
    if kind is not None and not _type_ok(value, kind):
        errors.append(f"{where}: must be {'an' if kind[0] in 'aeio' else 'a'} {kind}, not {_describe(value)}")
        return
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{where}: must not be empty")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{where}: must be at least {schema['minimum']}")
    elif isinstance(value, list):
        items = schema.get("items")
        if items is not None:
            for i, item in enumerate(value):
                _check(item, items, root, f"{path}[{i}]", errors)
    elif isinstance(value, dict):
        props: dict[str, Any] = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in value:
                errors.append(f"{where}: missing required field {key!r}")
        for key, item in value.items():
            sub_path = f"{path}.{key}" if path else key
            if key in props:
                _check(item, props[key], root, sub_path, errors)
            elif schema.get("additionalProperties") is False:
                known = ", ".join(sorted(props))
                errors.append(f"{sub_path}: unknown field (known: {known})")
