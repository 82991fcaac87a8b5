"""gem install / uninstall and bundle install with local gems (rubygems.org is
unreachable here: those failures are captured for real), plus one synthesized
`bundle install` from rubygems.org for the Fetching/Installing lines a path gem never
shows.

Signals: the gems built for the test (name and version), `gem list` after the run,
Gemfile.lock (every locked gem with its version) and the host that cannot be reached.
"""

from __future__ import annotations

from typing import Any

from capture._lib import Result, Workspace, sig, synthesized

GEMSPEC = """
Gem::Specification.new do |s|
  s.name = "{name}"
  s.version = "{version}"
  s.summary = "{name} for tokenjuice fixtures"
  s.authors = ["tokenjuice"]
  s.license = "MIT"
  s.files = Dir["lib/**/*.rb"]
{deps}end
"""


def _gem(ws: Workspace, name: str, version: str, deps: dict[str, str] | None = None, files: int = 1) -> str:
    dep_lines = "".join(f'  s.add_dependency "{n}", "{c}"\n' for n, c in (deps or {}).items())
    ws.write(f"gems/{name}/{name}.gemspec", GEMSPEC.format(name=name, version=version, deps=dep_lines))
    for k in range(files):
        ws.write(f"gems/{name}/lib/{name}/part{k}.rb", f"module {name.capitalize()}; PART{k} = {k}; end\n")
    ws.write(f"gems/{name}/lib/{name}.rb", f"module {name.capitalize()}; VERSION = '{version}'; end\n")
    ws.sh(f"gem build -q {name}.gemspec", f"gems/{name}")
    return str(ws.path(f"gems/{name}/{name}-{version}.gem"))


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("gem", "ruby")
    ws.env["GEM_HOME"] = str(ws.path("gem-home"))
    ws.env["GEM_PATH"] = str(ws.path("gem-home"))
    ws.env["PATH"] = f"{ws.path('gem-home/bin')}:" + ws.env["PATH"]
    fixtures: list[dict[str, Any]] = []
    fixtures += _gems(ws)
    if not ws.which("bundle"):
        ws.apt_install("bundler")
    if ws.which("bundle"):
        fixtures += _bundler(ws)
    return fixtures


def _gems(ws: Workspace) -> list[dict[str, Any]]:
    rule, family = "install/gem", "gem"
    version = ws.version(["gem", "--version"])
    out: list[dict[str, Any]] = []

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        out.append(
            ws.fixture(
                id,
                rule,
                r,
                family=family,
                signals=signals,
                signal_source=source,
                tool_version=f"gem {version}",
                notes=notes,
            )
        )

    def listed(*names: str) -> list[Any]:
        text = ws.sh("gem list --local " + " ".join(f"'^{n}$'" for n in names))
        sigs = []
        for line in text.splitlines():
            if "(" in line:
                name, vers = line.split(" (", 1)
                sigs.append(sig("installed", f"{name}-{vers.rstrip(')').split(',')[0].strip()}"))
        return sigs

    base = _gem(ws, "tjbase", "1.2.0")
    tool = _gem(ws, "tjtool", "0.4.0", {"tjbase": "~> 1.2"}, files=4)
    r = ws.run(["gem", "install", "--local", base, tool], "gems")
    add("gem-install-local", r, listed("tjbase", "tjtool"), "gem list afterwards: the gems and versions installed")

    big = _gem(ws, "tjbig", "2.0.0", files=250)
    r = ws.run(["gem", "install", "--local", "-V", big], "gems")
    add("gem-install-verbose", r, listed("tjbig"), "gem list afterwards", "250 files, -V lists each")

    broken = _gem(ws, "tjneeds", "0.1.0", {"tokenjuice-missing-gem": ">= 1.0"})
    r = ws.run(["gem", "install", "--local", broken], "gems")
    add(
        "gem-install-missing-dependency",
        r,
        [sig("error", "tokenjuice-missing-gem")],
        "the dependency the gemspec names that exists nowhere",
    )

    r = ws.run(["gem", "install", "rails"])
    add(
        "gem-install-rubygems-unreachable",
        r,
        [sig("error", "rails"), sig("error", "rubygems.org")],
        "the gem asked for; the host",
    )

    r = ws.run(["gem", "uninstall", "-x", "tjtool"])
    add("gem-uninstall", r, [sig("removed", "tjtool-0.4.0")], "the gem installed by the first fixture")
    return out


def _bundler(ws: Workspace) -> list[dict[str, Any]]:
    rule, family = "install/bundle", "bundler"
    version = ws.version(["bundle", "--version"])
    out: list[dict[str, Any]] = []
    ws.env["BUNDLE_PATH"] = str(ws.path("bundle-path"))
    ws.env["BUNDLE_USER_HOME"] = str(ws.path("bundle-home"))

    def add(id: str, r: Result, signals: list[Any], source: str, notes: str | None = None) -> None:
        out.append(
            ws.fixture(
                id, rule, r, family=family, signals=signals, signal_source=source, tool_version=version, notes=notes
            )
        )

    def locked(d: str) -> list[Any]:
        text = ws.path(f"{d}/Gemfile.lock").read_text()
        sigs = []
        for line in text.splitlines():
            if line.startswith("    ") and not line.startswith("     ") and "(" in line:
                name, ver = line.strip().split(" (", 1)
                sigs.append(sig("gem", f"{name} {ver.rstrip(')')}"))
        return sigs

    ws.write(
        "bapp/Gemfile",
        'gem "tjtool", path: "../gems/tjtool"\ngem "tjbase", path: "../gems/tjbase"\ngem "tjbig", path: "../gems/tjbig"\n',
    )
    r = ws.run(["bundle", "install"], "bapp")
    add("bundle-install-path-gems", r, locked("bapp"), "Gemfile.lock written: every locked gem and version")

    ws.write(
        "bconflict/Gemfile", 'gem "tjtool", path: "../gems/tjtool"\ngem "tjbase", "~> 2.0", path: "../gems/tjbase"\n'
    )
    r = ws.run(["bundle", "install"], "bconflict")
    add(
        "bundle-install-conflict",
        r,
        [sig("conflict", "tjbase"), sig("constraint", "~> 2.0")],
        "the constraint the Gemfile was built with (tjbase ~> 2.0 while the path gem is 1.2.0)",
    )

    ws.write("bnet/Gemfile", 'source "https://rubygems.org"\ngem "rake", "~> 13.0"\n')
    r = ws.run(["bundle", "install"], "bnet")
    add(
        "bundle-install-rubygems-unreachable",
        r,
        [sig("error", "rubygems.org")],
        "the gem source this machine cannot reach",
    )
    out.append(_bundle_synth(version))
    return out


BUNDLE_OUT = """\
Fetching gem metadata from https://rubygems.org/...........
Resolving dependencies...
Fetching rake 13.2.1
Installing rake 13.2.1
Fetching concurrent-ruby 1.3.4
Fetching minitest 5.25.1
Fetching i18n 1.14.6
Fetching tzinfo 2.0.6
Installing minitest 5.25.1
Installing concurrent-ruby 1.3.4
Installing i18n 1.14.6
Installing tzinfo 2.0.6
Using bundler 2.5.22
Fetching nokogiri 1.16.7 (x86_64-linux)
Installing nokogiri 1.16.7 (x86_64-linux)
Fetching json 2.7.2
Installing json 2.7.2 with native extensions
Gem::Ext::BuildError: ERROR: Failed to build gem native extension.

    current directory: /home/dev/app/vendor/bundle/ruby/3.3.0/gems/json-2.7.2/ext/json/ext/generator
/usr/bin/ruby3.3 extconf.rb
mkmf.rb can't find header files for ruby at /usr/lib/ruby/include/ruby.h

You might have to install separate package for the ruby development
environment, ruby-dev or ruby-devel for example.

extconf failed, exit code 1

Gem files will remain installed in /home/dev/app/vendor/bundle/ruby/3.3.0/gems/json-2.7.2 for inspection.
Results logged to /home/dev/app/vendor/bundle/ruby/3.3.0/extensions/x86_64-linux/3.3.0/json-2.7.2/gem_make.out

An error occurred while installing json (2.7.2), and Bundler cannot continue.

In Gemfile:
  json
"""


def _bundle_synth(version: str) -> dict[str, Any]:
    return synthesized(
        "bundle-install-native-extension-fails",
        "install/bundle",
        family="bundler",
        command="bundle install",
        exit_code=5,
        stdout=BUNDLE_OUT,
        signals=[
            sig("error", "Failed to build gem native extension"),
            sig("error", "can't find header files for ruby"),
            sig("error", "An error occurred while installing json (2.7.2)"),
            sig("installed", "Installing nokogiri 1.16.7"),
        ],
        format_source="bundler.io/man/bundle-install.1.html and Bundler 2 installer output: 'Fetching gem "
        "metadata', 'Fetching/Installing <gem> <version>', 'Using bundler', Gem::Ext::BuildError with mkmf's "
        "message, 'An error occurred while installing … Bundler cannot continue' (exit 5); rubygems.org is "
        "unreachable from the capture machine",
        tool_version=version,
    )
