"""Passwords given to well-known programs on their command line."""

from __future__ import annotations

import pytest

from tokenjuice.redact import Redactor

R = Redactor()
PW = "Hx7-kq2p_9Z"


@pytest.mark.parametrize(
    "line",
    [
        f"mysql -uroot -p{PW} app",
        f"+ /usr/bin/mysqldump -u root -p'{PW}' app > dump.sql",
        f"mariadb -h db -p{PW}",
        f"sshpass -p {PW} ssh deploy@host",
        f"sshpass -p'{PW}' scp a host:",
        f"curl -u admin:{PW} https://x.org",
        f"curl -s --user admin:{PW} https://x.org",
        f"curl --user=admin:{PW} https://x.org",
        f"docker login -u ci -p {PW} registry.example.org",
        f"podman login --username ci -p {PW} quay.io",
        f"helm registry login reg.io -u ci -p {PW}",
        f"az login -u me@example.org -p {PW}",
        f"twine upload -u __token__ -p {PW} dist/*",
        f"mongosh -u app -p {PW} mongodb://db",
        f"redis-cli -h cache -a {PW} ping",
        f"sqlcmd -S db -U sa -P {PW} -Q 'select 1'",
        f"zip -P {PW} -r out.zip dir",
        f"7z a -p{PW} out.7z dir",
        f"ldapsearch -x -D cn=admin -w {PW} -b dc=x",
        f"smbclient //srv/share -U bob%{PW}",
        f"lftp -u bob,{PW} sftp://host",
        f"sqlplus scott/{PW}@orcl",
        f"htpasswd -b -c .htpasswd bob {PW}",
        f"htpasswd -nb bob {PW}",
    ],
)
def test_program_flags(line: str) -> None:
    out, found = R.redact(line)
    assert PW not in out, out
    assert found == {"cli-password": 1}, found


@pytest.mark.parametrize(
    "line",
    [
        "mysql -u root -p app",  # -p alone: mysql asks for it
        "docker run -p 8080:80 nginx",  # not a login
        "redis-cli -h cache -p 6379 ping",
        'curl -u "$USER:$PASS" https://x.org',
        "curl -u user:password https://x.org",
        'sshpass -p "$PASS" ssh host',
        "ssh -p 2222 host",
        "mysql.connector.connect(user=u, password=p)",
        "sqlplus / as sysdba",
        "htpasswd -c .htpasswd bob",
        "the docker login page; -p is a flag",
    ],
)
def test_program_flags_without_a_password(line: str) -> None:
    assert R.redact(line) == (line, {})
