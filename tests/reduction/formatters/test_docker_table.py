from __future__ import annotations

import json

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._devops import fi_for
from tokenjuice.reduction.formatters import docker_table


def _ps_rows(combined: str) -> list[tuple[str, str]]:
    lines = combined.splitlines()
    header = lines[0]
    s, n = header.index("STATUS"), header.index("NAMES")
    p = header.index("PORTS")
    return [(ln[n:].strip(), ln[s:p].strip()) for ln in lines[1:] if ln.strip()]


def test_ps_keeps_every_problem_row_and_names_every_running_container() -> None:
    fx, red = reduce_fixture("docker", "docker-ps-a-many")
    assert not lost(fx, red.text)
    rows = _ps_rows(fx["combined"])
    body = red.text.splitlines()
    for name, status in rows:
        clean = (
            status.startswith("Up") and "(unhealthy)" not in status and "(Paused)" not in status
        ) or status.startswith("Exited (0)")
        row_lines = [ln for ln in body if ln.rstrip().endswith(f"  {name}")]
        if clean:
            assert not row_lines, name  # folded …
            assert any(name in ln for ln in body if ln.startswith(("up (", "exited (0)"))), name  # … but named
        else:
            assert len(row_lines) == 1, name
    up = sum(1 for _, st in rows if st.startswith("Up") and "(unhealthy)" not in st and "(Paused)" not in st)
    assert any(ln.startswith(f"up ({up}") for ln in body)


def test_short_listing_passes_unchanged() -> None:
    fx, red = reduce_fixture("docker", "docker-ps-few")
    assert red.text.strip() == "\n".join(ln.rstrip() for ln in fx["combined"].strip().splitlines())
    assert docker_table.format(fi_for("docker", "docker-ps-few")) is None


def test_images_keep_every_repository_and_dangling_ids() -> None:
    fx, red = reduce_fixture("docker", "docker-images-many")
    assert not lost(fx, red.text)
    lines = fx["combined"].splitlines()
    id_col = lines[0].index("IMAGE ID")
    dangling = [ln[id_col : id_col + 12] for ln in lines[1:] if ln.startswith("<none>")]
    assert dangling
    assert all(d in red.text for d in dangling)
    assert red.text.count("\n") < len(lines)


def test_images_mode_needs_an_images_table() -> None:
    assert docker_table.format(fi_for("docker", "docker-ps-a-many", {"mode": "images"})) is None
    assert json.dumps({}) == "{}"
