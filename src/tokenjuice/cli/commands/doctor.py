"""`tokenjuice doctor [hooks]`: rule layers, invalid rules, store health, tokenizer, host hooks."""

from __future__ import annotations

import argparse
import os
import sys

from tokenjuice._humanize import plural
from tokenjuice._humanize import size as human_size
from tokenjuice.cli.options import flag, positional, value

OPTIONS = (
    positional(
        "topic",
        optional=True,
        choices=lambda: ("all", "hooks"),
        default="all",
        help="'hooks' checks only the coding-agent hooks",
    ),
    value("--cwd", metavar="DIR", help="project directory to check (default: the current one)"),
    flag("--json", help="machine-readable report"),
)


def run(args: argparse.Namespace) -> int:
    report: dict[str, object] = {}
    problems: list[str] = []
    if args.topic == "all":
        report["version"] = _version()
        report["rules"] = _rules(args.cwd, problems)
        report["store"] = _store(problems)
        report["ledger"] = _ledger()
        report["tokenizer"] = _tokenizer()
        report["warnings_log"] = _warnings_log()
    report["hooks"] = _hooks(problems)
    report["problems"] = problems
    if args.json:
        import json

        sys.stdout.write(json.dumps(report, indent=2, default=str) + "\n")
    else:
        _print(report)
    return 1 if problems else 0


def _version() -> str:
    from tokenjuice import __version__

    return f"tokenjuice {__version__} on Python {sys.version.split()[0]}"


def _rules(cwd: str | None, problems: list[str]) -> dict[str, object]:
    from tokenjuice.rules.trust import gate
    from tokenjuice.rules.verify import verify_rules

    rep = verify_rules(cwd, project_gate=gate)
    problems.extend(str(p) for p in rep.problems)
    for layer, why in rep.skipped_layers.items():
        problems.append(f"{layer} rules not loaded: {why}")
    return {
        "layers": {
            layer: {"dir": d, "rules": rep.layer_counts.get(layer, 0), "skipped": rep.skipped_layers.get(layer)}
            for layer, d in rep.layer_dirs.items()
        },
        "rules": rep.rules,
        "families": rep.families,
        "invalid": len(rep.problems),
    }


def _store(problems: list[str]) -> dict[str, object]:
    from tokenjuice.store.artifacts import DamagedArtifact, Store, StoreError

    store = Store()
    info: dict[str, object] = {
        "path": store.path,
        "retention_days": store.retention_days,
        "max_mb": round(store.max_bytes / 1048576),
    }
    if os.environ.get("TOKENJUICE_STORE", "1") in ("0", "false", "no", "off"):
        info["disabled"] = "TOKENJUICE_STORE=0"
    try:
        count, raw, stored = store.totals()
        info.update(
            {
                "artifacts": count,
                "raw_bytes": raw,
                "disk_bytes": stored,
                "raw_mb": round(raw / 1048576, 2),
                "disk_mb": round(stored / 1048576, 2),
                "check": store.check(),
            }
        )
        wal = store.path + "-wal"
        if os.path.exists(wal):
            info["wal_mb"] = round(os.path.getsize(wal) / 1048576, 2)
        if os.path.isdir(store.root):
            mode = os.stat(store.root).st_mode & 0o777
            if mode & 0o077:
                problems.append(f"store directory {store.root} is readable by others (mode {mode:o}); chmod 700 it")
        if info["check"] != "ok":
            problems.append(f"store integrity check: {info['check']}")
        # Every stored output read back against its digest: damage `cat` would refuse.
        damaged: list[str] = []
        for aid in store.ids():
            try:
                store.verify(aid)
            except (DamagedArtifact, KeyError) as exc:
                damaged.append(aid)
                problems.append(str(exc).strip("'\""))
        info["damaged"] = damaged
    except StoreError as exc:
        info["error"] = str(exc)
        problems.append(str(exc))
    finally:
        store.close()
    info["orphans"] = _orphans(problems)
    return info


def _orphans(problems: list[str]) -> dict[str, object]:
    """Spool files left by a `wrap` that was killed (see `tokenjuice.store.spool`)."""
    from tokenjuice.store import spool

    found = spool.orphans()
    size = sum(o.size for o in found)
    if found:
        problems.append(
            f"{plural(len(found), 'orphaned spool file')} ({human_size(size)}) left by"
            f" a wrap that was killed, in {os.path.dirname(found[0].path)}; `tokenjuice prune` removes them"
        )
    return {"files": [o.path for o in found], "mb": round(size / 1048576, 2), "bytes": size}


def _ledger() -> dict[str, object]:
    from tokenjuice.store import ledger

    d = ledger.ledger_dir()
    try:
        files = sorted(n for n in os.listdir(d) if n.endswith(".jsonl"))
    except OSError:
        files = []
    size = sum(os.path.getsize(os.path.join(d, n)) for n in files)
    records = sum(1 for _ in ledger.iter_records()) if files else 0
    return {
        "dir": d,
        "files": len(files),
        "records": records,
        "kb": round(size / 1024, 1),
        "disabled": os.environ.get("TOKENJUICE_LEDGER", "1") in ("0", "false", "no", "off"),
    }


def _tokenizer() -> dict[str, object]:
    from tokenjuice import tokens

    avail = tokens.available()
    choice = os.environ.get("TOKENJUICE_TOKENIZER", "auto").lower()
    exact_ok = avail["o200k_base"] and choice not in ("estimate", "approx")
    return {
        "setting": choice,
        "o200k_base_installed": avail["o200k_base"],
        "reductions": "o200k_base" if exact_ok and choice != "auto" else tokens.ESTIMATE_NAME,
        "on_request": "o200k_base" if exact_ok else tokens.ESTIMATE_NAME,
    }


def _warnings_log() -> dict[str, object]:
    """Warnings that `wrap`/`hook` logged while running under an agent (no terminal)."""
    import os

    from tokenjuice import _log
    from tokenjuice._fs import read_regular

    path = _log.log_path()
    try:
        # Bounded, and never a FIFO planted in a shared state directory.
        lines = read_regular(path, 4 * _log.MAX_LOG_BYTES).decode("utf-8", "replace").splitlines()
    except OSError:
        lines = []
    return {"path": path, "lines": len(lines), "last": lines[-1] if lines else None, "exists": os.path.exists(path)}


def _hooks(problems: list[str]) -> dict[str, object]:
    import importlib

    try:
        registry = importlib.import_module("tokenjuice.hosts").registry
    except ImportError:
        return {}
    out: dict[str, object] = {}
    for name, host in registry().items():
        status = host.status()
        out[name] = status.to_dict()
        problems.extend(f"{name}: {p}" for p in status.problems)
    return out


def _print(report: dict[str, object]) -> None:
    w = sys.stdout.write
    if "version" in report:
        w(f"{report['version']}\n\n")
    rules = report.get("rules")
    if isinstance(rules, dict):
        w(f"rules: {rules['rules']} in {rules['families']} families, {rules['invalid']} invalid\n")
        for layer, info in rules["layers"].items():
            note = f"  (not loaded: {info['skipped']})" if info.get("skipped") else ""
            w(f"  {layer:8} {info['rules']:4d}  {info['dir'] or '(none found)'}{note}\n")
    store = report.get("store")
    if isinstance(store, dict):
        w(f"\nstore: {store['path']}\n")
        if "error" in store:
            w(f"  unavailable: {store['error']}\n")
        else:
            raw, disk, count = (int(str(store.get(k, 0))) for k in ("raw_bytes", "disk_bytes", "artifacts"))
            w(f"  {plural(count, 'output')}, {human_size(raw)} raw, ")
            w(f"{human_size(disk)} on disk, check {store.get('check')}; ")
            w(f"keeps {store['retention_days']:g} days, at most {store['max_mb']} MB\n")
            damaged = store.get("damaged")
            if isinstance(damaged, list) and damaged:
                w(f"  damaged: {len(damaged)} ({', '.join(damaged)})\n")
        orphans = store.get("orphans")
        if isinstance(orphans, dict) and orphans.get("files"):
            files = orphans["files"]
            assert isinstance(files, list)
            w(f"  orphaned spool files: {len(files)} ({human_size(int(orphans.get('bytes', 0)))})\n")
        if store.get("disabled"):
            w(f"  disabled by {store['disabled']}\n")
    ledger = report.get("ledger")
    if isinstance(ledger, dict):
        w(
            f"\nledger: {ledger['records']} records in {ledger['files']} files ({ledger['kb']} KB) at {ledger['dir']}"
            f"{' (disabled)' if ledger['disabled'] else ''}\n"
        )
    tok = report.get("tokenizer")
    if isinstance(tok, dict):
        w(
            f"\ntokens: reductions count with {tok['reductions']}, a process that calls"
            f" tokenjuice.tokens.use_exact() with {tok['on_request']}"
            f" (TOKENJUICE_TOKENIZER={tok['setting']}; o200k_base extra "
            f"{'installed' if tok['o200k_base_installed'] else 'not installed'})\n"
        )
    wlog = report.get("warnings_log")
    if isinstance(wlog, dict) and wlog.get("lines"):
        w(f"\nwarnings logged by wrap/hook: {wlog['lines']} at {wlog['path']}\n  last: {wlog['last']}\n")
    hooks = report.get("hooks")
    if isinstance(hooks, dict) and hooks:
        w("\nhooks:\n")
        for name, st in hooks.items():
            assert isinstance(st, dict)
            w(f"  {name:12} {st.get('summary')}\n")
    problems = report.get("problems") or []
    assert isinstance(problems, list)
    w(f"\n{len(problems)} problem{'s' if len(problems) != 1 else ''}\n")
    for p in problems:
        w(f"  - {p}\n")
