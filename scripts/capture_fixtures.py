#!/usr/bin/env python3
"""Capture rule fixtures by running real tools on small throwaway projects.

    python scripts/capture_fixtures.py                 # every module in scripts/capture/
    python scripts/capture_fixtures.py --only git pytest
    python scripts/capture_fixtures.py --list

Each module in scripts/capture/ builds its projects in a fresh scratch directory, runs
the tool (installing it with pip/npm into a shared tools directory when needed), and
returns fixtures whose must-keep signals come from the tool's machine-readable output.
Fixtures land in tests/fixtures/<family>/; golden files are regenerated afterwards for
the fixtures written (review them: `git diff tests/fixtures`). A module whose tool
cannot run here raises Skip and leaves its existing fixtures untouched.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "src"))

from capture._lib import Skip, Workspace, write_fixture  # noqa: E402


def modules() -> list[str]:
    return sorted(p.stem for p in (HERE / "capture").glob("*.py") if not p.name.startswith("_"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="+", metavar="MODULE", help="capture only these modules")
    ap.add_argument("--out", default=str(REPO / "tests" / "fixtures"), help="fixture directory")
    ap.add_argument(
        "--tools",
        default=str(Path.home() / ".cache" / "tokenjuice-capture-tools"),
        help="where pip/npm-installed tools are kept between runs",
    )
    ap.add_argument("--keep-workdir", action="store_true", help="keep the scratch projects for inspection")
    ap.add_argument(
        "--scratch",
        default=str(Path(tempfile.gettempdir()) / "tokenjuice-capture"),
        help="where the throwaway projects are built (emptied per module)",
    )
    ap.add_argument("--list", action="store_true", help="list capture modules and exit")
    ap.add_argument("--no-goldens", action="store_true", help="do not regenerate golden files")
    args = ap.parse_args()
    names = modules()
    if args.list:
        print("\n".join(names))
        return 0
    if args.only:
        unknown = sorted(set(args.only) - set(names))
        if unknown:
            print(f"unknown module(s): {', '.join(unknown)}; known: {', '.join(names)}", file=sys.stderr)
            return 2
        names = [n for n in names if n in args.only]
    out = Path(args.out)
    tools = Path(args.tools)
    tools.mkdir(parents=True, exist_ok=True)
    # A fixed scratch root (emptied first) keeps paths that tools print stable across
    # re-captures, so goldens only change when the output really changes.
    scratch = Path(args.scratch)
    for name in names:
        shutil.rmtree(scratch / name, ignore_errors=True)
    scratch.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    status = 0
    for name in names:
        mod = importlib.import_module(f"capture.{name}")
        root = scratch / name
        root.mkdir(parents=True)
        ws = Workspace(root, tools)
        t0 = time.time()
        try:
            fixtures = mod.capture(ws)
        except Skip as exc:
            print(f"{name:16} skipped: {exc}")
            continue
        except Exception:  # noqa: BLE001 - report and carry on with other modules
            print(f"{name:16} FAILED")
            traceback.print_exc()
            status = 1
            continue
        for fx in fixtures:
            written.append(write_fixture(fx, out))
        print(f"{name:16} {len(fixtures):3d} fixtures in {time.time() - t0:.1f}s")
    if args.keep_workdir:
        print(f"scratch projects kept in {scratch}")
    else:
        for name in names:
            shutil.rmtree(scratch / name, ignore_errors=True)
    if written and not args.no_goldens:
        from update_goldens import update

        changed = update(written)
        print(f"goldens: {changed} written or changed")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
