"""Rule layers: built-in, user, project; overrides by id; broken files fail open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tokenjuice import _log
from tokenjuice.rules.loader import BUILTIN_DIR, find_project_rules_dir, load_rules, user_rules_dir
from tokenjuice.rules.rule import Rule


def write_rule(directory: Path, name: str, rule: Any) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    p = directory / name
    p.write_text(json.dumps(rule) if not isinstance(rule, str) else rule, encoding="utf-8")
    return p


def rule(rule_id: str, **extra: Any) -> dict[str, Any]:
    return {"id": rule_id, "family": "t", "match": {"argv0": ["tool"]}, **extra}


@pytest.fixture
def warnings() -> Any:
    seen: list[str] = []
    _log.add_listener(seen.append)
    yield seen
    _log.remove_listener(seen.append)


def test_user_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("TOKENJUICE_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert user_rules_dir() == str(tmp_path / "cfg" / "tokenjuice" / "rules")
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert user_rules_dir() == str(tmp_path / ".config" / "tokenjuice" / "rules")


def test_three_layers_override_by_id(tmp_path: Path) -> None:
    user = tmp_path / "user"
    project = tmp_path / "proj" / ".tokenjuice" / "rules"
    write_rule(user, "git-status.json", {"id": "git/status", "family": "mine", "match": {"gitSubcommands": ["status"]}})
    write_rule(user, "tool.json", rule("team/tool", description="user"))
    write_rule(project / "sub", "tool.json", rule("team/tool", description="project"))
    rs = load_rules(tmp_path / "proj", user_dir=str(user), cache=False)
    assert rs.by_id["git/status"].layer == "user"
    assert rs.by_id["git/status"].family == "mine"
    assert rs.by_id["team/tool"].layer == "project"
    assert rs.by_id["team/tool"].data["description"] == "project"
    assert ("team/tool", "user", "project") in rs.overrides
    assert rs.layer_counts == {"builtin": rs.layer_counts["builtin"], "user": 2, "project": 1}
    assert rs.fallback.id == "generic/fallback"
    assert all(r.id != "generic/fallback" for r in rs.candidates(["tool", "git"]))


def test_override_of_an_alias_replaces_every_split_rule(tmp_path: Path) -> None:
    user = tmp_path / "user"
    before = load_rules(tmp_path, user_dir=str(tmp_path / "none"), cache=False)
    split = sorted(r.id for r in before.rules if "cloud/gh" in r.aliases)
    assert len(split) >= 5, split  # ours splits the one TypeScript gh rule by subcommand
    write_rule(user, "gh.json", {"id": "cloud/gh", "family": "developer-cli", "match": {"argv0": ["gh"]}})
    for cache in (False, True):  # the cached rule heads carry the aliases too
        rs = load_rules(tmp_path, user_dir=str(user), cache=cache)
        assert [r.id for r in rs.rules if "gh" in (r.match.get("argv0") or ())] == ["cloud/gh"]
        assert not set(split) & set(rs.by_id)
        assert {(i, "builtin", "user") for i in split} <= set(rs.overrides)


def test_project_rules_found_from_a_subdirectory(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    rules = root / ".tokenjuice" / "rules"
    rules.mkdir(parents=True)
    deep = root / "a" / "b" / "c"
    deep.mkdir(parents=True)
    assert find_project_rules_dir(deep) == str(rules)
    # The search stops at the repository root: a parent's rules do not leak in.
    inner = tmp_path / "outer" / "inner"
    (inner / ".git").mkdir(parents=True)
    (tmp_path / "outer" / ".tokenjuice" / "rules").mkdir(parents=True)
    assert find_project_rules_dir(inner) is None


def test_malformed_files_are_skipped_with_a_named_warning(tmp_path: Path, warnings: list[str]) -> None:
    user = tmp_path / "user"
    bad_json = write_rule(user, "broken.json", "{ not json")
    bad_field = write_rule(user, "badfield.json", rule("team/bad", summarize={"head": "ten"}))
    write_rule(user, "good.json", rule("team/good"))
    write_rule(user, "many.json", [rule("team/a"), {"id": "team/b"}])
    rs = load_rules(tmp_path, user_dir=str(user), project=False, cache=False)
    assert "team/good" in rs.by_id
    assert "team/a" in rs.by_id
    assert "team/bad" not in rs.by_id
    assert "team/b" not in rs.by_id
    text = "\n".join(warnings)
    assert f"{bad_json}: invalid JSON" in text
    assert f"{bad_field}: rule 'team/bad': summarize.head: must be an integer" in text
    assert "many.json[1]: rule 'team/b': rule: missing required field 'family'" in text


def test_duplicate_ids_in_one_layer_keep_the_first(tmp_path: Path) -> None:
    user = tmp_path / "user"
    write_rule(user, "a.json", rule("team/dup", description="first"))
    write_rule(user, "b.json", rule("team/dup", description="second"))
    rs = load_rules(tmp_path, user_dir=str(user), project=False, cache=False)
    assert rs.by_id["team/dup"].data["description"] == "first"
    assert any("duplicate id" in str(p) for p in rs.problems)


def test_cache_picks_up_edits(tmp_path: Path) -> None:
    user = tmp_path / "user"
    p = write_rule(user, "tool.json", rule("team/tool", description="v1"))
    first = load_rules(tmp_path, user_dir=str(user), project=False)
    assert first.by_id["team/tool"].data["description"] == "v1"
    second = load_rules(tmp_path, user_dir=str(user), project=False)
    assert second.from_cache
    p.write_text(json.dumps(rule("team/tool", description="v2 with a longer text")), encoding="utf-8")
    third = load_rules(tmp_path, user_dir=str(user), project=False)
    assert not third.from_cache
    assert third.by_id["team/tool"].data["description"] == "v2 with a longer text"


def test_a_cache_file_holding_other_files_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache file is named after the layer directories and holds the signature of
    their files: whatever else the file holds under that name is not used."""
    import marshal

    monkeypatch.setenv("TOKENJUICE_HOME", str(tmp_path / "home"))
    user = tmp_path / "user"
    write_rule(user, "tool.json", rule("team/tool", description="v1"))
    assert not load_rules(tmp_path, user_dir=str(user), project=False).from_cache
    (f,) = (tmp_path / "home").rglob("rules-*.marshal")
    data = marshal.loads(f.read_bytes())
    assert str(user / "tool.json") in data["signature"]
    f.write_bytes(marshal.dumps({**data, "signature": data["signature"] + "\0another file"}))
    again = load_rules(tmp_path, user_dir=str(user), project=False)
    assert not again.from_cache and again.by_id["team/tool"].data["description"] == "v1"
    assert load_rules(tmp_path, user_dir=str(user), project=False).from_cache  # rewritten


def test_builtin_layer_is_the_package_directory() -> None:
    rs = load_rules(None, user=False, project=False, cache=False)
    assert rs.layer_dirs["builtin"] == BUILTIN_DIR
    assert {"generic/fallback", "tests/pytest", "git/status", "git/diff", "git/log"} <= set(rs.by_id)


def test_rules_from_the_cache_are_the_rules_from_the_files(tmp_path: Path) -> None:
    """The cache keeps each rule's data marshalled until used: what comes out of it is
    what the files say, criteria and all."""
    fresh = load_rules(None, user=False, project=False, cache=False)
    first = load_rules(None, user=False, project=False, cache=True)
    cached = load_rules(None, user=False, project=False, cache=True)
    assert not first.from_cache and cached.from_cache
    assert [r.id for r in cached.rules] == [r.id for r in fresh.rules]
    for a, b in zip(fresh.rules, cached.rules, strict=True):
        for name in sorted(Rule._CRITERIA):
            assert getattr(a, name) == getattr(b, name) or name.endswith("_regex"), (a.id, name)
        assert (a.command_regex is None) == (b.command_regex is None)
        assert (a.output_regex is None) == (b.output_regex is None)
        assert a.data == b.data, a.id


def test_an_installed_rule_tree_is_checked_by_its_directories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In site-packages, the built-in rules change only when the package is installed
    again, which removes and creates the files: the cache is checked by the family
    directories' mtimes (a stat per family, not per file), and a reinstalled file is
    still picked up."""
    import os
    import shutil

    monkeypatch.setenv("TOKENJUICE_HOME", str(tmp_path / "home"))
    tree = tmp_path / "venv" / "lib" / "site-packages" / "tokenjuice" / "rules" / "builtin"
    shutil.copytree(BUILTIN_DIR, tree)
    kw = {"builtin_dir": str(tree), "user": False, "project": False}
    assert not load_rules(None, **kw).from_cache
    assert load_rules(None, **kw).from_cache
    import marshal

    (f,) = (tmp_path / "home").rglob("rules-*.marshal")
    signature = marshal.loads(f.read_bytes())["signature"]
    assert str(tree / "tests") in signature and "pytest.json" not in signature
    # A reinstall: the file is removed and written again, so its directory changes.
    target = tree / "tests" / "pytest.json"
    data = json.loads(target.read_text("utf-8"))
    data["description"] = "reinstalled"
    target.unlink()
    old = os.stat(tree / "tests").st_mtime_ns
    target.write_text(json.dumps(data), encoding="utf-8")
    if os.stat(tree / "tests").st_mtime_ns == old:  # a coarse clock: make the change visible
        os.utime(tree / "tests", ns=(old + 10**9, old + 10**9))
    again = load_rules(None, **kw)
    assert not again.from_cache and again.by_id["tests/pytest"].data["description"] == "reinstalled"
