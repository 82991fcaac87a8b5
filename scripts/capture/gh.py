"""gh (GitHub CLI): pr list/view/checks, run list/view --log-failed, issue list, api.

gh needs github.com, which this machine cannot reach (and gh is not packaged for the
capture image), so every fixture is synthesized from gh's documented non-TTY output —
what an agent's shell gets, since gh writes its machine-friendly format whenever stdout
is not a terminal:

- tables (`pr list`, `issue list`, `run list`, `pr checks`): tab-separated fields, no
  header, timestamps in RFC 3339 (cli/cli internal/tableprinter: headers only on a TTY,
  AddTimeField formats non-TTY times with time.RFC3339);
- `pr view`: `field:\\tvalue` lines, `--`, then the raw markdown body
  (cli/cli pkg/cmd/pr/view/view.go printRawPrPreview); `--comments`: per comment
  author/association/edited/status lines, `--`, body, `--` (pkg/cmd/pr/shared/comments.go);
- `run view --log-failed`: `job<TAB>step<TAB>` + each raw Actions log line, which
  starts with an RFC 3339 timestamp (pkg/cmd/run/view/view.go displayRunLog);
- `api`: the REST response body as GitHub sends it (pretty-printed JSON; schema of
  docs.github.com/en/rest/pulls/pulls#list-pull-requests), errors as
  `gh: Not Found (HTTP 404)` on stderr with the JSON error body on stdout, exit 1;
- `pr checks` exits 1 when a check failed and 8 when checks are pending
  (cli.github.com/manual/gh_pr_checks).

Signals are the values the synthetic output was generated from.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

from capture._lib import Workspace, sig, synthesized

FAMILY = "gh"
REPO = "acme/widgets"
VERSION = "gh version 2.62.0 (2024-11-14) (format reference)"
SRC_TABLE = (
    "cli/cli internal/tableprinter/table_printer.go (non-TTY: no header, tab-separated, RFC 3339 times) and the "
    "non-TTY cases of pkg/cmd/{pr,issue,run}/list/list_test.go"
)
USERS = ["octocat", "mona", "hubot", "dana-dev", "rae-coder", "sam-ortiz", "kim-lee", "alex-novak"]
AREAS = ["api", "cli", "auth", "billing", "search", "ui", "cache", "docs", "ci", "deps"]
VERBS = ["Fix", "Add", "Refactor", "Speed up", "Document", "Remove", "Harden", "Migrate"]
THINGS = [
    "retry logic in the webhook sender",
    "pagination of the search endpoint",
    "token refresh race",
    "dark mode contrast",
    "flaky checkout test",
    "CSV export encoding",
    "rate limiter headers",
    "stale cache after deploy",
    "translation keys",
    "startup time",
]
T0 = dt.datetime(2024, 10, 1, 9, 0, 0, tzinfo=dt.UTC)
BOM = "\ufeff"


def _ts(rng: random.Random, days: int = 60) -> str:
    return (T0 + dt.timedelta(seconds=rng.randrange(days * 86400))).strftime("%Y-%m-%dT%H:%M:%SZ")


def _title(rng: random.Random) -> str:
    return f"{rng.choice(VERBS)} {rng.choice(THINGS)}"


def _fx(
    id: str,
    command: str,
    stdout: str,
    signals: list[Any],
    source: str,
    *,
    exit_code: int = 0,
    stderr: str = "",
    rule: str,
) -> dict[str, Any]:
    return synthesized(
        id,
        rule,
        family=FAMILY,
        command=command,
        exit_code=exit_code,
        stdout=stdout,
        stderr=stderr,
        signals=signals,
        format_source=source,
        tool_version=VERSION,
    )


# --------------------------------------------------------------------- tables


def pr_list(rng: random.Random) -> dict[str, Any]:
    rows, sigs = [], []
    for n in range(612, 552, -1):
        title = _title(rng)
        branch = (
            f"{rng.choice(USERS)}:{rng.choice(AREAS)}/{title.split()[-1].lower()}-{n}"
            if n % 9 == 0
            else f"{rng.choice(AREAS)}/{title.split()[-2].lower()}-{n}"
        )
        state = "DRAFT" if n % 7 == 0 else "OPEN"
        rows.append(f"{n}\t{title}\t{branch}\t{state}\t{_ts(rng)}")
        sigs += [sig("pr", str(n)), sig("title", title), sig("branch", branch)]
        if state == "DRAFT":
            sigs.append(sig("state", "DRAFT"))
    return _fx(
        "gh-pr-list",
        f"gh pr list --repo {REPO} --limit 60",
        "\n".join(rows) + "\n",
        sigs,
        SRC_TABLE + "; columns number, title, head label, state, createdAt",
        rule="cloud/gh-pr-list",
    )


def issue_list(rng: random.Random) -> dict[str, Any]:
    labels = ["bug", "enhancement", "good first issue", "needs-triage", "p1", "docs", "regression", "security"]
    rows, sigs = [], []
    for n in range(1480, 1400, -1):
        title = _title(rng)
        picked = ", ".join(sorted(rng.sample(labels, rng.randrange(0, 3))))
        rows.append(f"{n}\tOPEN\t{title}\t{picked}\t{_ts(rng)}")
        sigs += [sig("issue", str(n)), sig("title", title)]
    return _fx(
        "gh-issue-list",
        f"gh issue list --repo {REPO} --limit 80",
        "\n".join(rows) + "\n",
        sigs,
        SRC_TABLE + "; columns number, state, title, labels, updatedAt (pkg/cmd/issue/shared/display.go)",
        rule="cloud/gh-issue-list",
    )


def run_list(rng: random.Random) -> dict[str, Any]:
    workflows = ["CI", "Release", "CodeQL", "Docs", "Nightly"]
    rows, sigs = [], []
    run_id = 11820450000
    for k in range(50):
        run_id -= rng.randrange(1000, 90000)
        wf = rng.choice(workflows)
        title = _title(rng)
        branch = rng.choice(["main", "main", "release/2.4", f"{rng.choice(AREAS)}/work-{k}"])
        event = "push" if branch == "main" else rng.choice(["pull_request", "push", "workflow_dispatch"])
        if k < 2:
            status, conclusion = "in_progress", ""
        elif k % 11 == 4 or k % 13 == 6:
            status, conclusion = "completed", "failure"
        elif k % 17 == 9:
            status, conclusion = "completed", "cancelled"
        else:
            status, conclusion = "completed", "success"
        elapsed = f"{rng.randrange(1, 25)}m{rng.randrange(60)}s"
        rows.append(f"{status}\t{conclusion}\t{title}\t{wf}\t{branch}\t{event}\t{run_id}\t{elapsed}\t{_ts(rng, 14)}")
        sigs.append(sig("run", str(run_id)))
        if conclusion in ("failure", "cancelled") or status != "completed":
            sigs += [sig("title", title), sig("state", conclusion or status)]
    return _fx(
        "gh-run-list",
        f"gh run list --repo {REPO} --limit 50",
        "\n".join(rows) + "\n",
        sigs,
        SRC_TABLE + "; columns status, conclusion, title, workflow, branch, event, id, elapsed, age "
        "(pkg/cmd/run/list/list_test.go 'blank nontty')",
        rule="cloud/gh-run-list",
    )


def pr_checks(rng: random.Random, kind: str) -> dict[str, Any]:
    names = [
        f"test ({os}, {py})"
        for os in ("ubuntu-latest", "macos-latest", "windows-latest")
        for py in ("3.10", "3.11", "3.12", "3.13")
    ]
    names += [
        "lint",
        "typecheck",
        "docs",
        "build (amd64)",
        "build (arm64)",
        "e2e (chromium)",
        "e2e (firefox)",
        "e2e (webkit)",
        "CodeQL",
        "license-check",
        "bundle-size",
        "coverage",
        "Analyze (python)",
        "Analyze (javascript)",
        "dependency-review",
        "semgrep",
        "sbom",
        "helm-lint",
        "terraform-plan",
        "container-scan",
        "changelog",
        "commitlint",
        "spellcheck",
        "a11y",
    ]
    rows: dict[str, list[str]] = {"fail": [], "pending": [], "pass": [], "skipping": []}
    sigs: list[Any] = []
    for k, name in enumerate(names):
        if kind == "failing" and name in ("test (windows-latest, 3.12)", "e2e (webkit)", "typecheck"):
            bucket = "fail"
        elif kind in ("failing", "pending") and name in ("e2e (firefox)", "terraform-plan"):
            bucket = "pending"
        elif name in ("sbom", "helm-lint", "container-scan"):
            bucket = "skipping"
        else:
            bucket = "pass"
        job = 31000000000 + k * 7919
        link = f"https://github.com/{REPO}/actions/runs/11820{rng.randrange(100000, 999999)}/job/{job}"
        elapsed = "0" if bucket in ("pending", "skipping") else f"{rng.randrange(0, 14)}m{rng.randrange(60)}s"
        desc = {"fail": "Process completed with exit code 1.", "pending": "In progress"}.get(bucket, "")
        rows[bucket].append("\t".join([name, bucket, elapsed, link] + ([desc] if desc else [])))
        sigs.append(sig("check", name))
        if bucket in ("fail", "pending"):
            sigs += [sig("state", f"{name}\t{bucket}".split("\t")[0]), sig("link", link)]
    order = sorted(rows["fail"]) + sorted(rows["pending"]) + sorted(rows["pass"]) + sorted(rows["skipping"])
    code = {"failing": 1, "pending": 8, "passing": 0}[kind]
    return _fx(
        f"gh-pr-checks-{kind}",
        f"gh pr checks 4211 --repo {REPO}",
        "\n".join(order) + "\n",
        sigs,
        "cli/cli pkg/cmd/pr/checks/output.go (non-TTY: name, bucket, elapsed, link, description; sorted fail, "
        "pending, others) and cli.github.com/manual/gh_pr_checks (exit 8 while checks are pending)",
        exit_code=code,
        rule="cloud/gh-pr-checks",
    )


# ----------------------------------------------------------------------- view


PR_BODY = """\
<!--
Thanks for sending a pull request! Please make sure you:
- describe the change and link the issue it fixes
- add tests, and update the docs when behaviour changes
- keep the PR focused: one change per PR
-->

## Summary

The webhook sender retried failed deliveries immediately and forever, which hammered
receivers that were down. This switches to exponential backoff with jitter and gives
up after 8 attempts, recording the failure on the delivery.

Fixes #1432

## Changes

- `webhooks/sender.py`: backoff with full jitter, capped at 10 minutes
- `webhooks/models.py`: `Delivery.gave_up_at`, migration 0042
- `docs/webhooks.md`: document the retry schedule

<!-- Describe how you tested this. -->
## Testing

- [x] unit tests for the schedule (`tests/webhooks/test_backoff.py`)
- [x] ran the sender against a receiver that returns 503 for an hour
- [ ] load test in staging

<!-- Screenshots (if UI changed) -->

## Checklist

- [x] I have read the CONTRIBUTING guide
- [x] Tests pass locally
- [ ] Docs updated
"""


def pr_view() -> dict[str, Any]:
    fields = [
        ("title", "Retry webhook deliveries with exponential backoff"),
        ("state", "OPEN"),
        ("author", "rae-coder"),
        ("labels", "backend, webhooks"),
        ("assignees", "rae-coder"),
        ("reviewers", "mona (Approved), octocat (Changes requested), acme/platform-team (Requested)"),
        ("projects", ""),
        ("milestone", ""),
        ("number", "4211"),
        ("url", f"https://github.com/{REPO}/pull/4211"),
        ("additions", "412"),
        ("deletions", "57"),
        ("auto-merge", "disabled"),
    ]
    out = "".join(f"{k}:\t{v}\n" for k, v in fields) + "--\n" + PR_BODY
    sigs = [sig("field", v) for k, v in fields if v] + [
        sig("body", "Fixes #1432"),
        sig("body", "gives up after 8 attempts"),
        sig("body", "[ ] load test in staging"),
        sig("body", "[ ] Docs updated"),
    ]
    return _fx(
        "gh-pr-view",
        f"gh pr view 4211 --repo {REPO}",
        out,
        sigs,
        "cli/cli pkg/cmd/pr/view/view.go printRawPrPreview (non-TTY field:\\tvalue lines, --, raw body)",
        rule="cloud/gh-view",
    )


def pr_view_comments() -> dict[str, Any]:
    comments = [
        (
            "mona",
            "member",
            "false",
            "approved",
            "Looks good. The jitter makes sense.\n\nOne nit: log the attempt number.",
        ),
        (
            "octocat",
            "owner",
            "true",
            "changes requested",
            "Please cap the total retry window too, not just the attempts.\n\n```python\nMAX_WINDOW = timedelta(hours=6)\n```\n\n"
            "Otherwise a slow receiver can hold a worker for days.",
        ),
        (
            "github-actions",
            "none",
            "false",
            "",
            "Coverage report: 91.4% (+0.3%)\n\n| file | cover |\n|---|---|\n"
            "| webhooks/sender.py | 96% |\n| webhooks/models.py | 88% |",
        ),
        (
            "rae-coder",
            "contributor",
            "false",
            "",
            "Capped the window at 6 hours and added the attempt number to the log line.",
        ),
    ]
    out = ""
    sigs = []
    for who, assoc, edited, status, body in comments:
        out += f"author:\t{who}\nassociation:\t{assoc}\nedited:\t{edited}\nstatus:\t{status}\n--\n{body}\n--\n"
        sigs.append(sig("author", who))
        sigs += [sig("body", ln) for ln in body.splitlines() if ln.strip() and not ln.startswith(("|", "```"))]
        if status:
            sigs.append(sig("status", status))
    return _fx(
        "gh-pr-view-comments",
        f"gh pr view 4211 --comments --repo {REPO}",
        out,
        sigs,
        "cli/cli pkg/cmd/pr/shared/comments.go formatRawComment (author/association/edited/status, --, body, --)",
        rule="cloud/gh-view",
    )


# ------------------------------------------------------------------ run logs


def run_log(rng: random.Random) -> dict[str, Any]:
    lines: list[str] = []
    t = dt.datetime(2024, 11, 20, 14, 2, 11, tzinfo=dt.UTC)

    def log(job: str, step: str, text: str, *, bom: bool = False) -> None:
        nonlocal t
        t += dt.timedelta(milliseconds=rng.randrange(1, 900))
        stamp = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}0Z"
        mark = BOM if bom else ""
        lines.append(f"{job}\t{step}\t{mark}{stamp} {text}")

    job, step = "test (ubuntu-latest, 3.12)", "Run tests"
    log(job, step, "##[group]Run python -m pytest -q --maxfail=20 -p no:cacheprovider", bom=True)
    log(job, step, "python -m pytest -q --maxfail=20 -p no:cacheprovider")
    log(job, step, "shell: /usr/bin/bash -e {0}")
    log(job, step, "env:")
    for k, v in [
        ("pythonLocation", "/opt/hostedtoolcache/Python/3.12.7/x64"),
        ("PKG_CONFIG_PATH", "/opt/hostedtoolcache/Python/3.12.7/x64/lib/pkgconfig"),
        ("Python_ROOT_DIR", "/opt/hostedtoolcache/Python/3.12.7/x64"),
        ("Python2_ROOT_DIR", "/opt/hostedtoolcache/Python/3.12.7/x64"),
        ("Python3_ROOT_DIR", "/opt/hostedtoolcache/Python/3.12.7/x64"),
        ("LD_LIBRARY_PATH", "/opt/hostedtoolcache/Python/3.12.7/x64/lib"),
        ("DATABASE_URL", "postgres://ci:ci@localhost:5432/widgets"),
        ("FORCE_COLOR", "0"),
    ]:
        log(job, step, f"  {k}: {v}")
    log(job, step, "##[endgroup]")
    tests = [f"tests/{area}/test_{area}_{k}.py" for area in AREAS for k in range(14)]
    failing = {
        "tests/api/test_api_2.py": "test_pagination_last_page",
        "tests/cache/test_cache_4.py": "test_stale_after_deploy",
        "tests/auth/test_auth_1.py": "test_refresh_race",
    }
    dots = ""
    for path in tests:
        dots += "".join("F" if path in failing and k == 3 else "." for k in range(rng.randrange(20, 60)))
    for k in range(0, len(dots), 80):
        pct = min(100, (k + 80) * 100 // len(dots))
        log(job, step, f"{dots[k : k + 80]:<80} [{pct:3d}%]")
    log(job, step, "=================================== FAILURES ===================================")
    sigs: list[Any] = []
    for path, name in failing.items():
        log(job, step, f"___________________________ {name} ___________________________")
        log(job, step, "")
        log(job, step, "client = <FlaskClient <Flask 'widgets'>>, seeded = None")
        log(job, step, "")
        log(job, step, f"    def {name}(client, seeded):")
        for k in range(22):
            log(job, step, f"        payload_{k} = build_payload(kind={k!r}, size=rng.randrange(10, 90))")
            if k % 5 == 4:
                log(job, step, f"        client.post('/api/items', json=payload_{k})")
        log(job, step, "        result = client.get('/api/items?page=7')")
        log(job, step, ">       assert result.status == 200")
        log(job, step, "E   AssertionError: assert 503 == 200")
        log(job, step, "E    +  where 503 = <Response [503]>.status")
        log(job, step, "")
        log(job, step, f"{path}:{40 + len(name)}: AssertionError")
        sigs += [sig("failing_test", f"{path}::{name}"), sig("location", f"{path}:{40 + len(name)}")]
    log(job, step, "=========================== short test summary info ============================")
    for path, name in failing.items():
        log(job, step, f"FAILED {path}::{name} - AssertionError: assert 503 == 200")
    log(job, step, f"3 failed, {len(dots) - 3} passed in 212.48s (0:03:32)")
    log(job, step, "##[error]Process completed with exit code 1.")
    sigs += [sig("summary", f"3 failed, {len(dots) - 3} passed"), sig("error", "Process completed with exit code 1.")]

    job, step = "lint", "Run ruff check ."
    log(job, step, "##[group]Run ruff check . --output-format=github", bom=True)
    log(job, step, "ruff check . --output-format=github")
    log(job, step, "shell: /usr/bin/bash -e {0}")
    log(job, step, "##[endgroup]")
    ruff = [
        ("src/widgets/webhooks/sender.py", 14, 1, "F401", "`time` imported but unused"),
        ("src/widgets/webhooks/sender.py", 88, 80, "E501", "Line too long (131 > 120)"),
        ("src/widgets/cache/store.py", 203, 9, "B006", "Do not use mutable data structures for argument defaults"),
    ]
    for path, line, col, code, msg in ruff:
        log(
            job,
            step,
            f"::error title=Ruff ({code}),file={path},line={line},col={col}::{path}:{line}:{col}: {code} {msg}",
        )
        sigs.append(sig("location", f"{path}:{line}:{col}"))
    log(job, step, "Found 3 errors.")
    log(job, step, "[*] 1 fixable with the `--fix` option.")
    log(job, step, "##[error]Process completed with exit code 1.")
    sigs.append(sig("summary", "Found 3 errors."))
    return _fx(
        "gh-run-view-log-failed",
        f"gh run view 11820463311 --log-failed --repo {REPO}",
        "\n".join(lines) + "\n",
        sigs,
        "cli/cli pkg/cmd/run/view/view.go displayRunLog (job<TAB>step<TAB>raw log line; Actions log lines "
        "start with an RFC 3339 timestamp, the first line of a step log with a BOM)",
        rule="cloud/gh-run-view",
    )


# ------------------------------------------------------------------------ api


def _api_user(login: str, uid: int) -> dict[str, Any]:
    api = f"https://api.github.com/users/{login}"
    return {
        "login": login,
        "id": uid,
        "node_id": f"MDQ6VXNlcj{uid:08d}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}?v=4",
        "gravatar_id": "",
        "url": api,
        "html_url": f"https://github.com/{login}",
        "followers_url": f"{api}/followers",
        "following_url": f"{api}/following{{/other_user}}",
        "gists_url": f"{api}/gists{{/gist_id}}",
        "starred_url": f"{api}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{api}/subscriptions",
        "organizations_url": f"{api}/orgs",
        "repos_url": f"{api}/repos",
        "events_url": f"{api}/events{{/privacy}}",
        "received_events_url": f"{api}/received_events",
        "type": "User",
        "user_view_type": "public",
        "site_admin": False,
    }


def _api_repo() -> dict[str, Any]:
    api = f"https://api.github.com/repos/{REPO}"
    tmpl = [
        "forks",
        "keys{/key_id}",
        "collaborators{/collaborator}",
        "teams",
        "hooks",
        "issues/events{/number}",
        "events",
        "assignees{/user}",
        "branches{/branch}",
        "tags",
        "git/blobs{/sha}",
        "git/tags{/sha}",
        "git/refs{/sha}",
        "git/trees{/sha}",
        "statuses/{sha}",
        "languages",
        "stargazers",
        "contributors",
        "subscribers",
        "subscription",
        "commits{/sha}",
        "git/commits{/sha}",
        "comments{/number}",
        "issues/comments{/number}",
        "contents/{+path}",
        "compare/{base}...{head}",
        "merges",
        "{archive_format}{/ref}",
        "downloads",
        "issues{/number}",
        "pulls{/number}",
        "milestones{/number}",
        "notifications{?since,all,participating}",
        "labels{/name}",
        "releases{/id}",
        "deployments",
    ]
    repo: dict[str, Any] = {
        "id": 601234567,
        "node_id": "R_kgDOI9x1Bw",
        "name": "widgets",
        "full_name": REPO,
        "private": False,
        "owner": _api_user("acme", 9919),
        "html_url": f"https://github.com/{REPO}",
        "description": "Widgets as a service",
        "fork": False,
        "url": api,
    }
    for t in tmpl:
        key = t.split("{")[0].replace("/", "_").rstrip("_") or "archive"
        repo[f"{key.replace('git_', 'git_')}_url"] = f"{api}/{t}"
    repo.update(
        {
            "created_at": "2023-02-11T10:22:31Z",
            "updated_at": "2024-11-20T08:01:12Z",
            "pushed_at": "2024-11-20T13:59:02Z",
            "git_url": f"git://github.com/{REPO}.git",
            "ssh_url": f"git@github.com:{REPO}.git",
            "clone_url": f"https://github.com/{REPO}.git",
            "svn_url": f"https://github.com/{REPO}",
            "homepage": "https://widgets.example.com",
            "size": 48211,
            "stargazers_count": 1834,
            "watchers_count": 1834,
            "language": "Python",
            "has_issues": True,
            "has_projects": True,
            "has_downloads": True,
            "has_wiki": False,
            "has_pages": False,
            "has_discussions": True,
            "forks_count": 211,
            "mirror_url": None,
            "archived": False,
            "disabled": False,
            "open_issues_count": 287,
            "license": {
                "key": "mit",
                "name": "MIT License",
                "spdx_id": "MIT",
                "url": "https://api.github.com/licenses/mit",
                "node_id": "MDc6TGljZW5zZTEz",
            },
            "allow_forking": True,
            "is_template": False,
            "web_commit_signoff_required": False,
            "topics": ["api", "python", "widgets"],
            "visibility": "public",
            "forks": 211,
            "open_issues": 287,
            "watchers": 1834,
            "default_branch": "main",
        }
    )
    return repo


def api_pulls(rng: random.Random) -> dict[str, Any]:
    repo = _api_repo()
    api = f"https://api.github.com/repos/{REPO}"
    pulls = []
    sigs: list[Any] = []
    for k, n in enumerate(range(4211, 4199, -1)):
        author = _api_user(rng.choice(USERS), 5000 + k)
        title = _title(rng)
        ref = f"{rng.choice(AREAS)}/{title.split()[-1].lower()}-{n}"
        sha = "".join(rng.choice("0123456789abcdef") for _ in range(40))
        label = rng.choice(["bug", "enhancement", "dependencies"])
        pr: dict[str, Any] = {
            "url": f"{api}/pulls/{n}",
            "id": 2100000000 + n,
            "node_id": f"PR_kwDOI9x1B86{n:06d}",
            "html_url": f"https://github.com/{REPO}/pull/{n}",
            "diff_url": f"https://github.com/{REPO}/pull/{n}.diff",
            "patch_url": f"https://github.com/{REPO}/pull/{n}.patch",
            "issue_url": f"{api}/issues/{n}",
            "number": n,
            "state": "open",
            "locked": False,
            "title": title,
            "user": author,
            "body": f"{title}.\n\nFixes #{n - 800}",
            "created_at": _ts(rng),
            "updated_at": _ts(rng),
            "closed_at": None,
            "merged_at": None,
            "merge_commit_sha": "".join(rng.choice("0123456789abcdef") for _ in range(40)),
            "assignee": None,
            "assignees": [],
            "requested_reviewers": [_api_user("mona", 7001)],
            "requested_teams": [],
            "labels": [
                {
                    "id": 5100000000 + k,
                    "node_id": f"LA_kwDOI9x1B88AAAAB{k:04d}",
                    "url": f"{api}/labels/{label}",
                    "name": label,
                    "color": "d73a4a",
                    "default": label == "bug",
                    "description": f"{label} label",
                }
            ],
            "milestone": None,
            "draft": n % 5 == 0,
            "commits_url": f"{api}/pulls/{n}/commits",
            "review_comments_url": f"{api}/pulls/{n}/comments",
            "review_comment_url": f"{api}/pulls/comments{{/number}}",
            "comments_url": f"{api}/issues/{n}/comments",
            "statuses_url": f"{api}/statuses/{sha}",
            "head": {"label": f"acme:{ref}", "ref": ref, "sha": sha, "user": _api_user("acme", 9919), "repo": repo},
            "base": {
                "label": "acme:main",
                "ref": "main",
                "sha": "9" * 40,
                "user": _api_user("acme", 9919),
                "repo": repo,
            },
            "_links": {
                name: {"href": href}
                for name, href in [
                    ("self", f"{api}/pulls/{n}"),
                    ("html", f"https://github.com/{REPO}/pull/{n}"),
                    ("issue", f"{api}/issues/{n}"),
                    ("comments", f"{api}/issues/{n}/comments"),
                    ("review_comments", f"{api}/pulls/{n}/comments"),
                    ("review_comment", f"{api}/pulls/comments{{/number}}"),
                    ("commits", f"{api}/pulls/{n}/commits"),
                    ("statuses", f"{api}/statuses/{sha}"),
                ]
            },
            "author_association": "MEMBER",
            "auto_merge": None,
            "active_lock_reason": None,
        }
        pulls.append(pr)
        sigs += [
            sig("number", f'"number": {n}'),
            sig("title", title),
            sig("ref", ref),
            sig("url", pr["html_url"]),
            sig("author", author["login"]),
        ]
    return _fx(
        "gh-api-pulls",
        f"gh api repos/{REPO}/pulls",
        json.dumps(pulls, indent=2) + "\n",
        sigs,
        "docs.github.com/en/rest/pulls/pulls#list-pull-requests (response schema; the API pretty-prints) and "
        "cli/cli pkg/cmd/api (non-TTY: the body as received)",
        rule="cloud/gh-api",
    )


def api_not_found() -> dict[str, Any]:
    body = json.dumps(
        {
            "message": "Not Found",
            "documentation_url": "https://docs.github.com/rest/issues/issues#get-an-issue",
            "status": "404",
        }
    )
    return _fx(
        "gh-api-not-found",
        f"gh api repos/{REPO}/issues/99999",
        body,
        [sig("error", "gh: Not Found (HTTP 404)"), sig("message", '"Not Found"')],
        "cli/cli pkg/cmd/api: `gh: <message> (HTTP <code>)` on stderr, the JSON error body on stdout, exit 1",
        exit_code=1,
        stderr="gh: Not Found (HTTP 404)\n",
        rule="cloud/gh-api",
    )


def pr_list_logged_out() -> dict[str, Any]:
    err = (
        "To get started with GitHub CLI, please run:  gh auth login\n"
        "Alternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.\n"
    )
    return _fx(
        "gh-pr-list-logged-out",
        f"gh pr list --repo {REPO}",
        "",
        [sig("error", "gh auth login"), sig("error", "GH_TOKEN")],
        "cli/cli pkg/cmdutil/auth_check.go (the not-authenticated message, exit 4)",
        exit_code=4,
        stderr=err,
        rule="cloud/gh-pr-list",
    )


def capture(ws: Workspace) -> list[dict[str, Any]]:
    del ws  # nothing runs: gh cannot reach github.com from here
    rng = random.Random(53)
    return [
        pr_list(rng),
        pr_list_logged_out(),
        issue_list(rng),
        run_list(rng),
        pr_checks(rng, "failing"),
        pr_checks(rng, "pending"),
        pr_checks(rng, "passing"),
        pr_view(),
        pr_view_comments(),
        run_log(rng),
        api_pulls(rng),
        api_not_found(),
    ]
