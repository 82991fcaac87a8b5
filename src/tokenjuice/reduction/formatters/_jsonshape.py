"""A large JSON document as its structure: keys, types, array lengths, one sample.

Error-looking fields (`error`, `errors`, `message`, `detail`, …) are kept verbatim
wherever they are in the first two levels: a summary must never hide why an API
call failed.
"""

from __future__ import annotations

import json

from tokenjuice import _re as re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ERROR_KEY_RE = re.compile(
    r"^(?:err|message|msg|detail|details|reason|fault|exception|warnings?|problems?)$|errors?$", re.IGNORECASE
)
SCALAR_CHARS = 120
SAMPLE_CHARS = 320
VERBATIM_CHARS = 2000
MAX_KEYS_LISTED = 40
MAX_DEPTH = 2


def type_name(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, list):
        return "array"
    return "object"


def compact(v: Any, limit: int) -> str:
    text = json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
    if len(text) > limit:
        return text[: limit - 1] + "…"
    return text


def summarize(doc: Any, raw_chars: int) -> list[tuple[str, bool]]:
    """Lines describing `doc`, each with whether it must be kept (error fields)."""
    out: list[tuple[str, bool]] = []
    if isinstance(doc, dict):
        out.append((f"JSON object, {len(doc):,} keys ({raw_chars:,} chars):", True))
        _object(doc, out, indent="", depth=1)
    elif isinstance(doc, list):
        out.append((f"JSON {_array_head(doc)} ({raw_chars:,} chars):", True))
        _array_body(doc, out, indent="  ")
    else:
        out.append((f"JSON {type_name(doc)}: {compact(doc, SAMPLE_CHARS)}", True))
    return out


def _object(obj: dict[str, Any], out: list[tuple[str, bool]], indent: str, depth: int) -> None:
    keys = list(obj)
    listed = keys if len(keys) <= MAX_KEYS_LISTED else keys[:MAX_KEYS_LISTED]
    for k in listed:
        v = obj[k]
        name = json.dumps(k, ensure_ascii=False)
        if ERROR_KEY_RE.search(k) and v not in (None, [], {}, ""):
            out.append((f"{indent}{name}: {compact(v, VERBATIM_CHARS)}", True))
            continue
        if isinstance(v, dict):
            if depth < MAX_DEPTH and v:
                out.append((f"{indent}{name}: object, {len(v):,} keys", depth == 1))
                _object(v, out, indent + "  ", depth + 1)
            else:
                out.append((f"{indent}{name}: {_object_head(v)}", depth == 1))
                _errors_within(v, out, indent + "  ")
        elif isinstance(v, list):
            out.append((f"{indent}{name}: {_array_head(v)}", depth == 1))
            if depth < MAX_DEPTH or any(isinstance(x, dict) for x in v[:1]):
                _array_body(v, out, indent + "  ")
        else:
            out.append((f"{indent}{name}: {compact(v, SCALAR_CHARS)}", depth == 1))
    if len(keys) > len(listed):
        rest = keys[len(listed) :]
        types = _type_counts(obj[k] for k in rest)
        out.append((f"{indent}… {len(rest):,} more keys ({types}), last {json.dumps(rest[-1])}", False))


def _object_head(v: dict[str, Any]) -> str:
    if not v:
        return "{}"
    names = list(v)[:12]
    more = f", … +{len(v) - len(names)}" if len(v) > len(names) else ""
    return f"object, {len(v):,} keys: " + ", ".join(names) + more


def _array_head(v: list[Any]) -> str:
    if not v:
        return "[]"
    kinds = {type_name(x) for x in v}
    of = kinds.pop() if len(kinds) == 1 else "mixed (" + _type_counts(v) + ")"
    return f"array[{len(v):,}] of {of}"


def _array_body(v: list[Any], out: list[tuple[str, bool]], indent: str) -> None:
    if not v:
        return
    objs = [x for x in v if isinstance(x, dict)]
    if objs:
        seen: dict[str, list[Any]] = {}
        for o in objs:
            for k, val in o.items():
                seen.setdefault(k, []).append(val)
        parts = []
        for k, vals in list(seen.items())[:MAX_KEYS_LISTED]:
            types = sorted({type_name(x) for x in vals})
            opt = "" if len(vals) == len(objs) else f" ({len(vals):,}/{len(objs):,})"
            parts.append(f"{k}: {'|'.join(types)}{opt}")
        if len(seen) > MAX_KEYS_LISTED:
            parts.append(f"… +{len(seen) - MAX_KEYS_LISTED} keys")
        out.append((f"{indent}keys: " + ", ".join(parts), False))
        out.append((f"{indent}[0]: {compact(v[0], SAMPLE_CHARS)}", False))
        if len(v) > 1:
            out.append((f"{indent}[{len(v) - 1}]: {compact(v[-1], SAMPLE_CHARS)}", False))
        # Per-element error fields stay visible (a batch API reporting failed items).
        failed = [(i, o) for i, o in enumerate(v) if isinstance(o, dict) and _error_fields(o)]
        for i, o in failed[:20]:
            fields = _error_fields(o)
            ident = next((o[k] for k in ("id", "name", "key", "sku") if k in o), None)
            who = f" ({json.dumps(ident)})" if ident is not None else ""
            out.append((f"{indent}[{i}]{who} " + ", ".join(fields), True))
        if len(failed) > 20:
            out.append((f"{indent}… {len(failed) - 20} more elements with error fields", True))
        return
    sample = ", ".join(compact(x, SCALAR_CHARS // 2) for x in v[:5])
    more = ", …" if len(v) > 5 else ""
    out.append((f"{indent}[{sample}{more}]", False))


def _error_fields(o: dict[str, Any]) -> list[str]:
    return [
        f"{json.dumps(k)}: {compact(val, VERBATIM_CHARS // 4)}"
        for k, val in o.items()
        if ERROR_KEY_RE.search(k) and val not in (None, [], {}, "")
    ]


def _errors_within(v: dict[str, Any], out: list[tuple[str, bool]], indent: str) -> None:
    for field in _error_fields(v):
        out.append((f"{indent}{field}", True))


def _type_counts(values: Any) -> str:
    counts: dict[str, int] = {}
    for x in values:
        t = type_name(x)
        counts[t] = counts.get(t, 0) + 1
    return ", ".join(f"{n:,} {t}" for t, n in sorted(counts.items(), key=lambda kv: -kv[1]))
