from __future__ import annotations

import re

from hypothesis import example, given, settings

from tests.helpers import lost, reduce_fixture
from tests.reduction.formatters._devops import fi_text
from tests.reduction.formatters._forms import lines_of, reading
from tokenjuice.reduction.formatters import terraform_plan


def test_plan_keeps_every_change_and_only_changed_attributes() -> None:
    fx, red = reduce_fixture("terraform", "terraform-plan-mixed-large")
    assert not lost(fx, red.text)
    raw = re.sub(r"\x1b\[[0-9;]*m", "", fx["combined"])
    headers = re.findall(r"^\s*# (\S+) (?:will be|must be)", raw, re.M)
    for addr in headers:
        assert f"# {addr} " in red.text
    assert red.text.splitlines()[0].startswith("Plan: ")
    assert "Refreshing state" not in red.text
    assert "(known after apply)" not in red.text.replace("-> (known after apply)", "")
    assert "unchanged attributes hidden" not in red.text
    # Every in-place image change survives.
    for old, new in re.findall(r'~ image\s+= "([^"]+)" -> "([^"]+)"', raw):
        assert f'"{old}" -> "{new}"' in red.text


def test_apply_drops_progress_of_completed_resources() -> None:
    fx, red = reduce_fixture("terraform", "terraform-apply-create-many")
    assert not lost(fx, red.text)
    assert "Creating..." not in red.text
    assert "Creation complete" not in red.text
    assert "service_count = " in red.text
    assert re.search(r"… \d+ more items", red.text)


def test_failed_apply_keeps_the_failing_resource_and_error_box() -> None:
    fx, red = reduce_fixture("terraform", "terraform-apply-provisioner-fail")
    assert not lost(fx, red.text)
    assert 'terraform_data.migrate (local-exec): ERROR: relation "orders" does not exist' in red.text
    assert "running hook-" not in red.text
    assert red.text.startswith("exit 1")


def test_no_changes_plan_is_short() -> None:
    fx, red = reduce_fixture("terraform", "terraform-plan-no-changes")
    assert not lost(fx, red.text)
    assert len(red.text.splitlines()) < 10


def test_not_a_plan() -> None:
    assert terraform_plan.format(fi_text("Success! The configuration is valid.\n")) is None


# The address cannot hold what ends it (`:` or `(`), so only one end is possible: the
# greedy or possessive forms find the same one as the lazy forms they replaced, without
# trying the rest after every character.
@settings(max_examples=800, deadline=None)
@given(line=lines_of("a.b", " ", ":", ": ", "(", ")", " (local-exec)", "(file", "): ", "Creating...", "Still x..."))
@example("a (x (local-exec): Creating...")
@example("a:b (local-exec): Creating...")
def test_progress_pattern_reads_the_address_as_its_lazy_form(line: str) -> None:
    lazy = re.compile(terraform_plan.PROGRESS_RE.pattern.replace(r"^(\S[^:(]*)", r"^(\S[^:(]*?)", 1))
    assert lazy.pattern != terraform_plan.PROGRESS_RE.pattern
    assert reading(terraform_plan.PROGRESS_RE.match(line)) == reading(lazy.match(line))


@settings(max_examples=500, deadline=None)
@given(line=lines_of("a.b", " ", "(", ")", " (", "local-exec", "file", "): ", ":"))
@example("a (x (local-exec): out")
def test_provisioner_pattern_reads_the_address_as_its_lazy_form(line: str) -> None:
    lazy = re.compile(r"^(\S[^(]*?) \((?:local-exec|remote-exec|file)\): ")
    assert reading(terraform_plan.PROVISIONER_OUT_RE.match(line)) == reading(lazy.match(line))


@settings(max_examples=500, deadline=None)
@given(line=lines_of("a.b", " ", ":", ": ", "Creation", "Import", " complete after ", "1s"))
@example("a:b: Creation complete after 1s")
def test_complete_pattern_reads_the_address_as_its_lazy_form(line: str) -> None:
    lazy = re.compile(r"^(\S[^:]*?): (?:Creation|Modifications|Destruction|Import) complete after ")
    assert reading(terraform_plan.COMPLETE_RE.match(line)) == reading(lazy.match(line))
