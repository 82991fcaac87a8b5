"""Database clients: psql, sqlite3, mysql (MariaDB client), redis-cli.

Each server is started inside the workspace on a high port (PostgreSQL as the
`postgres` user, which initdb/postgres require) and stopped at the end. The data is
generated here; signals come from it and from machine-readable output of the same
query (`psql --csv`, `sqlite3 -json`, `mariadb --batch`), never from tokenjuice.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from capture._lib import Skip, Workspace, sig

PG_PORT = 55433
MY_PORT = 53307
REDIS_PORT = 56380
ROWS = 5000

FIRST = ["ada", "alan", "grace", "linus", "ken", "dennis", "barbara", "edsger", "donald", "frances", "john", "radia"]
LAST = ["lovelace", "turing", "hopper", "torvalds", "thompson", "ritchie", "liskov", "dijkstra", "knuth", "allen"]
CITIES = ["Lisbon", "Oslo", "Nairobi", "Lima", "Osaka", "Perth", "Quito", "Tallinn", "Accra", "Hanoi"]


def _customers(n: int) -> list[tuple[int, str, str, str, float]]:
    rng = random.Random(21)
    rows = []
    for i in range(1, n + 1):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        rows.append(
            (i, f"{first} {last}", f"{first}.{last}{i}@example.com", rng.choice(CITIES), round(rng.uniform(0, 5000), 2))
        )
    return rows


def _seed_sql(rows: list[tuple[int, str, str, str, float]]) -> str:
    out = [
        "CREATE TABLE customers (id integer PRIMARY KEY, name varchar(60) NOT NULL, "
        "email varchar(120) NOT NULL UNIQUE, city varchar(40), balance numeric(10,2) DEFAULT 0);",
        "CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer NOT NULL REFERENCES customers(id), "
        "total numeric(10,2) NOT NULL, status varchar(12) NOT NULL);",
        "CREATE INDEX orders_customer_idx ON orders (customer_id);",
    ]
    vals = ",\n".join(f"({i}, '{n}', '{e}', '{c}', {b})" for i, n, e, c, b in rows)
    out.append(f"INSERT INTO customers VALUES\n{vals};")
    rng = random.Random(4)
    ovals = ",\n".join(
        f"({k}, {rng.randint(1, len(rows))}, {rng.uniform(5, 900):.2f}, "
        f"'{rng.choice(['paid', 'paid', 'shipped', 'refunded', 'pending'])}')"
        for k in range(1, 801)
    )
    out.append(f"INSERT INTO orders VALUES\n{ovals};")
    return "\n".join(out) + "\n"


def capture(ws: Workspace) -> list[dict[str, Any]]:
    rows = _customers(ROWS)
    ws.write("seed.sql", _seed_sql(rows))
    fixtures: list[dict[str, Any]] = []
    if ws.which("sqlite3"):
        fixtures += _sqlite(ws)
    if ws.which("psql") and os.path.exists("/usr/local/bin/postgres"):
        fixtures += _postgres(ws)
    if ws.which("mariadb") and ws.which("mariadbd"):
        fixtures += _mariadb(ws)
    if ws.which("redis-server") and ws.which("redis-cli"):
        fixtures += _redis(ws)
    if not fixtures:
        raise Skip("no database client is installed")
    return fixtures


# -------------------------------------------------------------------- psql


def _postgres(ws: Workspace) -> list[dict[str, Any]]:
    # The scratch root is private (0700): the server's own directory lives beside it.
    pg = Path(tempfile.mkdtemp(prefix="tj-capture-pg-"))
    os.chmod(pg, 0o755)
    shutil.chown(pg, "postgres")
    data = pg / "data"
    run_as = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*run_as, "/usr/local/bin/initdb", "-D", str(data), "-U", "app", "--auth=trust"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *run_as,
            "/usr/local/bin/pg_ctl",
            "-D",
            str(data),
            "-l",
            str(pg / "server.log"),
            "-w",
            "-o",
            f"-p {PG_PORT} -k {pg} -c listen_addresses=127.0.0.1",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        return _psql_fixtures(ws)
    finally:
        subprocess.run(
            [*run_as, "/usr/local/bin/pg_ctl", "-D", str(data), "-m", "fast", "-w", "stop"], capture_output=True
        )
        shutil.rmtree(pg, ignore_errors=True)


def _psql_fixtures(ws: Workspace) -> list[dict[str, Any]]:
    base = ["psql", "-h", "127.0.0.1", "-p", str(PG_PORT), "-U", "app"]
    ws.sh(f"{' '.join(base)} -d postgres -q -c 'CREATE DATABASE shop'")
    ws.sh(f"{' '.join(base)} -d shop -q -v ON_ERROR_STOP=1 -f seed.sql")
    ver = ws.version(["psql", "--version"])
    out = []

    def csv_rows(query: str) -> list[list[str]]:
        text = ws.sh(f'{" ".join(base)} -d shop --csv -c "{query}"')
        return list(csv.reader(io.StringIO(text)))

    q_all = "SELECT id, name, email, city, balance FROM customers ORDER BY id"
    rows = csv_rows(q_all)
    r = ws.run([*base, "-d", "shop", "-c", q_all])
    out.append(
        ws.fixture(
            "psql-select-5000-rows",
            "database/psql",
            r,
            family="psql",
            signals=[
                sig("header", " | ".join(rows[0])),
                sig("count", f"({len(rows) - 1} rows)"),
                sig("first_row", rows[1][2]),
                sig("last_row", rows[-1][2]),
            ],
            signal_source="psql --csv of the same query: the column names, the row count, the first and "
            "last row's email",
            tool_version=ver,
            notes="a 5,000-row result in psql's aligned format",
        )
    )
    q_small = (
        "SELECT city, count(*) AS customers, round(avg(balance), 2) AS avg_balance "
        "FROM customers GROUP BY city ORDER BY city"
    )
    rows = csv_rows(q_small)
    r = ws.run([*base, "-d", "shop", "-c", q_small])
    out.append(
        ws.fixture(
            "psql-select-small",
            "database/psql",
            r,
            family="psql",
            signals=[*(sig("row", row[0]) for row in rows[1:]), sig("count", f"({len(rows) - 1} rows)")],
            signal_source="psql --csv of the same query: every city and the row count",
            tool_version=ver,
        )
    )
    r = ws.run([*base, "-d", "shop", "-c", r"\d orders"])
    out.append(
        ws.fixture(
            "psql-describe-table",
            "database/psql",
            r,
            family="psql",
            signals=[
                sig("column", c)
                for c in ("customer_id", "total", "status", "orders_customer_idx", "orders_customer_id_fkey")
            ],
            signal_source="the orders table as created by seed.sql (its columns, index and foreign key)",
            tool_version=ver,
        )
    )
    r = ws.run([*base, "-d", "shop", "-x", "-c", "SELECT * FROM customers WHERE id <= 60 ORDER BY id"])
    rows = csv_rows("SELECT * FROM customers WHERE id <= 60 ORDER BY id")
    out.append(
        ws.fixture(
            "psql-expanded-records",
            "database/psql",
            r,
            family="psql",
            signals=[sig("first", rows[1][2]), sig("last", rows[-1][2]), sig("record", "RECORD 1")],
            signal_source="psql --csv of the same query: first and last email",
            tool_version=ver,
        )
    )
    r = ws.run([*base, "-d", "shop", "-c", "SELECT id, name FORM customers WHERE city = 'Oslo'"])
    out.append(
        ws.fixture(
            "psql-syntax-error",
            "database/psql",
            r,
            family="psql",
            signals=[
                sig("error", 'ERROR:  syntax error at or near "customers"'),
                sig("line", "LINE 1: SELECT id, name FORM customers WHERE city = 'Oslo'"),
                sig("caret", "^"),
            ],
            signal_source="the statement the capture sent (its typo FORM) and PostgreSQL's documented "
            "syntax-error report",
            tool_version=ver,
        )
    )
    r = ws.run([*base, "-d", "shop", "-c", "SELECT * FROM invoices LIMIT 5"])
    out.append(
        ws.fixture(
            "psql-missing-table",
            "database/psql",
            r,
            family="psql",
            signals=[sig("error", 'relation "invoices" does not exist'), sig("line", "LINE 1:")],
            signal_source="the table the query names, which seed.sql never created",
            tool_version=ver,
        )
    )
    ws.write(
        "migrate.sql",
        "\n".join(
            [f"INSERT INTO orders VALUES ({1000 + k}, {k + 1}, {k}.50, 'paid');" for k in range(300)]
            + [
                "UPDATE customers SET balance = balance + 1 WHERE city = 'Oslo';",
                "ALTER TABLE customers ADD COLUMN tier varchar(8);",
                "INSERT INTO orders VALUES (1005, 1, 10.00, 'paid');",
                "ALTER TABLE orders ADD CONSTRAINT total_positive CHECK (total > 0);",
                "CREATE INDEX customers_city_idx ON customers (city);",
                "INSERT INTO orders VALUES (5000, 999999, 12.00, 'paid');",
                "SELECT count(*) AS orders FROM orders;",
            ]
        )
        + "\n",
    )
    r = ws.run([*base, "-d", "shop", "-f", "migrate.sql"])
    n_orders = csv_rows("SELECT count(*) FROM orders")[1][0]
    out.append(
        ws.fixture(
            "psql-script-errors",
            "database/psql",
            r,
            family="psql",
            signals=[
                sig("error", 'duplicate key value violates unique constraint "orders_pkey"'),
                sig("error", 'violates foreign key constraint "orders_customer_id_fkey"'),
                sig("location", "migrate.sql:303"),
                sig("location", "migrate.sql:306"),
                sig("result", n_orders),
            ],
            signal_source="migrate.sql as written: line 303 repeats order id 1005, line 306 names customer "
            "999999 that does not exist; the final count from psql --csv",
            tool_version=ver,
            notes="psql keeps going after errors (exit 0 without ON_ERROR_STOP)",
        )
    )
    r = ws.run(["psql", "-h", "127.0.0.1", "-p", "55999", "-U", "app", "-d", "shop", "-c", "SELECT 1"])
    out.append(
        ws.fixture(
            "psql-connection-refused",
            "database/psql",
            r,
            family="psql",
            signals=[sig("error", 'connection to server at "127.0.0.1", port 55999 failed: Connection refused')],
            signal_source="the port the capture used, on which nothing listens",
            tool_version=ver,
        )
    )
    return out


# ------------------------------------------------------------------ sqlite3


def _sqlite(ws: Workspace) -> list[dict[str, Any]]:
    ver = ws.version(["sqlite3", "--version"]).split()[0]
    ver = f"sqlite3 {ver}"
    ws.sh("sqlite3 shop.db < seed.sql")
    out = []

    def js(query: str) -> list[dict[str, Any]]:
        text = ws.sh(f'sqlite3 -json shop.db "{query}"')
        return json.loads(text) if text.strip() else []

    q = "SELECT id, name, email, city, balance FROM customers ORDER BY id"
    data = js(q)
    r = ws.run(["sqlite3", "shop.db", q])
    out.append(
        ws.fixture(
            "sqlite3-list-5000-rows",
            "database/sqlite3",
            r,
            family="sqlite3",
            signals=[sig("first_row", data[0]["email"]), sig("last_row", data[-1]["email"])],
            signal_source="sqlite3 -json of the same query: first and last row",
            tool_version=ver,
            notes="default list mode: pipe-separated, no header",
        )
    )
    q = "SELECT id, name, city, balance FROM customers WHERE balance > 4900 ORDER BY balance DESC"
    data = js(q)
    r = ws.run(["sqlite3", "-header", "-column", "shop.db", q])
    out.append(
        ws.fixture(
            "sqlite3-column-header",
            "database/sqlite3",
            r,
            family="sqlite3",
            signals=[
                sig("first_row", data[0]["name"]),
                sig("header", "id name city balance"),
                sig("last_row", str(data[-1]["balance"])),
            ],
            signal_source="sqlite3 -json of the same query",
            tool_version=ver,
        )
    )
    q = "SELECT status, count(*) AS n, round(sum(total), 2) AS revenue FROM orders GROUP BY status ORDER BY status"
    data = js(q)
    r = ws.run(["sqlite3", "-box", "shop.db", q])
    out.append(
        ws.fixture(
            "sqlite3-box-small",
            "database/sqlite3",
            r,
            family="sqlite3",
            signals=[sig("row", d["status"]) for d in data],
            signal_source="sqlite3 -json of the same query: every status",
            tool_version=ver,
        )
    )
    r = ws.run(["sqlite3", "shop.db", ".schema orders"])
    out.append(
        ws.fixture(
            "sqlite3-schema",
            "database/sqlite3",
            r,
            family="sqlite3",
            signals=[sig("schema", "CREATE TABLE orders"), sig("schema", "orders_customer_idx")],
            signal_source="seed.sql, which created the table and its index",
            tool_version=ver,
        )
    )
    r = ws.run(["sqlite3", "shop.db", "SELECT id, name FORM customers"])
    out.append(
        ws.fixture(
            "sqlite3-syntax-error",
            "database/sqlite3",
            r,
            family="sqlite3",
            signals=[sig("error", 'near "customers": syntax error'), sig("caret", "^--- error here")],
            signal_source="the statement the capture sent (typo FORM)",
            tool_version=ver,
        )
    )
    r = ws.run(["sqlite3", "shop.db", "SELECT * FROM invoices"])
    out.append(
        ws.fixture(
            "sqlite3-missing-table",
            "database/sqlite3",
            r,
            family="sqlite3",
            signals=[sig("error", "no such table: invoices")],
            signal_source="the table the query names, which seed.sql never created",
            tool_version=ver,
        )
    )
    ws.write("notadb.db", "this is plain text, not a database\n" * 100)
    r = ws.run(["sqlite3", "notadb.db", "SELECT name FROM sqlite_master"])
    out.append(
        ws.fixture(
            "sqlite3-not-a-database",
            "database/sqlite3",
            r,
            family="sqlite3",
            signals=[sig("error", "file is not a database")],
            signal_source="the text file the capture wrote in place of a database",
            tool_version=ver,
        )
    )
    return out


# ------------------------------------------------------------------- mysql


def _mariadb(ws: Workspace) -> list[dict[str, Any]]:
    d = ws.path("my")
    d.mkdir()
    subprocess.run(
        [
            "mariadb-install-db",
            "--no-defaults",
            f"--datadir={d / 'data'}",
            "--user=root",
            "--auth-root-authentication-method=normal",
        ],
        check=True,
        capture_output=True,
    )
    server = subprocess.Popen(
        [
            "mariadbd",
            "--no-defaults",
            f"--datadir={d / 'data'}",
            "--user=root",
            f"--port={MY_PORT}",
            "--bind-address=127.0.0.1",
            f"--socket={d / 'sock'}",
            f"--pid-file={d / 'pid'}",
            f"--log-error={d / 'err.log'}",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            if (
                subprocess.run(
                    ["mariadb-admin", "--no-defaults", "-h", "127.0.0.1", "-P", str(MY_PORT), "-u", "root", "ping"],
                    capture_output=True,
                ).returncode
                == 0
            ):
                break
            time.sleep(0.2)
        return _mysql_fixtures(ws)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _mysql_fixtures(ws: Workspace) -> list[dict[str, Any]]:
    base = ["mysql", "--no-defaults", "-h", "127.0.0.1", "-P", str(MY_PORT), "-u", "root"]
    b = " ".join(base)
    ws.sh(f"{b} -e 'CREATE DATABASE shop'")
    seed = ws.path("seed.sql").read_text().replace("numeric(10,2)", "decimal(10,2)")
    ws.write("seed-my.sql", seed)
    ws.sh(f"{b} shop < seed-my.sql")
    ver = ws.version(["mysql", "--version"])
    out = []

    def batch(query: str) -> list[list[str]]:
        text = ws.sh(f'{b} --batch shop -e "{query}"')
        return [ln.split("\t") for ln in text.splitlines()]

    q = "SELECT id, name, email, city, balance FROM customers ORDER BY id"
    rows = batch(q)
    r = ws.run([*base, "shop", "-e", q])
    out.append(
        ws.fixture(
            "mysql-batch-5000-rows",
            "database/mysql",
            r,
            family="mysql",
            signals=[
                sig("header", "id name email city balance"),
                sig("first_row", rows[1][2]),
                sig("last_row", rows[-1][2]),
            ],
            signal_source="mariadb --batch of the same query: the header, first and last row's email",
            tool_version=ver,
            notes="no terminal: the client prints tab-separated rows",
        )
    )
    q = "SELECT id, name, email, city, balance FROM customers WHERE id <= 400 ORDER BY id"
    rows = batch(q)
    r = ws.run([*base, "-t", "shop", "-e", q])
    out.append(
        ws.fixture(
            "mysql-table-400-rows",
            "database/mysql",
            r,
            family="mysql",
            signals=[
                sig("header", "| id | name | email | city | balance |"),
                sig("first_row", rows[1][2]),
                sig("last_row", rows[-1][2]),
            ],
            signal_source="mariadb --batch of the same query: the columns, first and last row's email",
            tool_version=ver,
        )
    )
    q = "SELECT * FROM customers WHERE id <= 40 ORDER BY id"
    rows = batch(q)
    r = ws.run([*base, "shop", "-e", q + "\\G"])
    out.append(
        ws.fixture(
            "mysql-vertical-records",
            "database/mysql",
            r,
            family="mysql",
            signals=[sig("first", rows[1][2]), sig("last", rows[-1][2]), sig("record", "1. row")],
            signal_source="mariadb --batch of the same query: first and last email",
            tool_version=ver,
        )
    )
    r = ws.run([*base, "shop", "-e", "SELECT id, name FORM customers"])
    out.append(
        ws.fixture(
            "mysql-syntax-error",
            "database/mysql",
            r,
            family="mysql",
            signals=[sig("error", "ERROR 1064 (42000)"), sig("near", "near 'customers' at line 1")],
            signal_source="the statement the capture sent (typo FORM); MariaDB's documented error 1064",
            tool_version=ver,
        )
    )
    r = ws.run([*base, "shop", "-e", "SELECT * FROM invoices"])
    out.append(
        ws.fixture(
            "mysql-missing-table",
            "database/mysql",
            r,
            family="mysql",
            signals=[sig("error", "ERROR 1146 (42S02)"), sig("error", "Table 'shop.invoices' doesn't exist")],
            signal_source="the table the query names, which seed.sql never created",
            tool_version=ver,
        )
    )
    r = ws.run(["mysql", "--no-defaults", "-h", "127.0.0.1", "-P", "53999", "-u", "root", "-e", "SELECT 1"])
    out.append(
        ws.fixture(
            "mysql-connection-refused",
            "database/mysql",
            r,
            family="mysql",
            signals=[sig("error", "ERROR 2002 (HY000)"), sig("error", "'127.0.0.1'")],
            signal_source="the port the capture used, on which nothing listens",
            tool_version=ver,
        )
    )
    r = ws.run(
        [
            "mysql",
            "--no-defaults",
            "-h",
            "127.0.0.1",
            "-P",
            str(MY_PORT),
            "-u",
            "root",
            "--password=wrong",
            "-e",
            "SELECT 1",
        ]
    )
    out.append(
        ws.fixture(
            "mysql-access-denied",
            "database/mysql",
            r,
            family="mysql",
            signals=[sig("error", "ERROR 1045 (28000)"), sig("error", "Access denied for user 'root'")],
            signal_source="the wrong password the capture logged in with",
            tool_version=ver,
        )
    )
    return out


# ---------------------------------------------------------------- redis-cli


def _redis(ws: Workspace) -> list[dict[str, Any]]:
    d = ws.path("redis")
    d.mkdir()
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(REDIS_PORT),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(d),
            "--logfile",
            str(d / "redis.log"),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        cwd=d,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(50):
            if subprocess.run(["redis-cli", "-p", str(REDIS_PORT), "ping"], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        return _redis_fixtures(ws)
    finally:
        server.terminate()
        server.wait(timeout=30)


def _redis_fixtures(ws: Workspace) -> list[dict[str, Any]]:
    cli = ["redis-cli", "-p", str(REDIS_PORT)]
    rng = random.Random(8)
    keys: dict[str, int] = {}
    cmds = []
    for i in range(2500):
        kind = rng.choice(["session", "session", "user", "cart", "rate"])
        key = f"{kind}:{rng.randint(10**6, 10**7)}" if kind != "rate" else f"rate:ip:10.0.{i % 256}.{i % 97}"
        keys[kind] = keys.get(kind, 0) + 1
        cmds.append(f"SET {key} {i}")
    cmds += [f"LPUSH queue:emails job-{k}" for k in range(50)]
    cmds += ["HSET config:app mode production workers 8", "SET feature:new-checkout on"]
    ws.write("load.txt", "\n".join(cmds) + "\n")
    ws.sh(f"{' '.join(cli)} < load.txt > /dev/null")
    ver = ws.version(["redis-cli", "--version"])
    out = []
    all_keys = ws.sh(f"{' '.join(cli)} --scan").split()
    prefixes = sorted({k.split(":")[0] for k in all_keys})
    r = ws.run([*cli, "KEYS", "*"])
    out.append(
        ws.fixture(
            "redis-keys-many",
            "database/redis-cli",
            r,
            family="redis-cli",
            signals=[sig("prefix", p + ":") for p in prefixes],
            signal_source="redis-cli --scan of the same database: every key prefix (before the first ':')",
            tool_version=ver,
            notes=f"{len(all_keys)} keys",
        )
    )
    r = ws.run([*cli, "--scan", "--pattern", "session:*"])
    out.append(
        ws.fixture(
            "redis-scan-pattern",
            "database/redis-cli",
            r,
            family="redis-cli",
            signals=[sig("prefix", "session:")],
            signal_source="the keys the capture loaded (all session:* keys match)",
            tool_version=ver,
        )
    )
    info = ws.sh(f"{' '.join(cli)} INFO")
    fields = dict(ln.split(":", 1) for ln in info.splitlines() if ":" in ln and not ln.startswith("#"))
    r = ws.run([*cli, "INFO"])
    out.append(
        ws.fixture(
            "redis-info",
            "database/redis-cli",
            r,
            family="redis-cli",
            signals=[
                sig("field", f"redis_version:{fields['redis_version'].strip()}"),
                sig("field", "used_memory_human:"),
                sig("field", "role:master"),
                sig("field", "connected_clients:"),
                sig("keyspace", "db0:keys="),
                sig("section", "# Keyspace"),
            ],
            signal_source="a second INFO call: version, memory, role, clients and keyspace fields",
            tool_version=ver,
        )
    )
    r = ws.run([*cli, "LRANGE", "queue:emails", "0", "-1"])
    out.append(
        ws.fixture(
            "redis-lrange",
            "database/redis-cli",
            r,
            family="redis-cli",
            signals=[sig("item", "job-49"), sig("item", "job-0")],
            signal_source="the 50 jobs the capture pushed (LPUSH: job-49 first, job-0 last)",
            tool_version=ver,
        )
    )
    r = ws.run([*cli, "HGETALL", "config:app"])
    out.append(
        ws.fixture(
            "redis-hgetall",
            "database/redis-cli",
            r,
            family="redis-cli",
            signals=[sig("field", "production"), sig("field", "workers")],
            signal_source="the hash the capture wrote",
            tool_version=ver,
        )
    )
    r = ws.run([*cli, "LPUSH", "config:app", "x"])
    out.append(
        ws.fixture(
            "redis-wrongtype",
            "database/redis-cli",
            r,
            family="redis-cli",
            signals=[sig("error", "WRONGTYPE Operation against a key holding the wrong kind of value")],
            signal_source="LPUSH on the hash key the capture wrote",
            tool_version=ver,
            notes="redis-cli exits 0 on server errors",
        )
    )
    r = ws.run([*cli, "FLUSHPLEASE"])
    out.append(
        ws.fixture(
            "redis-unknown-command",
            "database/redis-cli",
            r,
            family="redis-cli",
            signals=[sig("error", "ERR unknown command 'FLUSHPLEASE'")],
            signal_source="the command the capture sent, which Redis does not have",
            tool_version=ver,
        )
    )
    r = ws.run(["redis-cli", "-p", "56999", "PING"])
    out.append(
        ws.fixture(
            "redis-connection-refused",
            "database/redis-cli",
            r,
            family="redis-cli",
            signals=[sig("error", "Could not connect to Redis at 127.0.0.1:56999: Connection refused")],
            signal_source="the port the capture used, on which nothing listens",
            tool_version=ver,
        )
    )
    return out
