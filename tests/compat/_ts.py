"""Where the TypeScript tokenjuice checkout is: its fixtures, rules and types are read
from it at test time, never copied into this repository."""

from __future__ import annotations

import os
from pathlib import Path

TS_ROOT = Path(os.environ.get("TOKENJUICE_TS_CHECKOUT", "/work/shared/ts-tokenjuice"))
