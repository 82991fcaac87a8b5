"""go build / go install / go vet on an offline, stdlib-only module (GOPROXY=off).

Fixtures: type errors in two independent packages, a syntax error, `go build -v` and a
large `go build -a -x -v` success (every command echoed), `go vet` findings (plain and
with a type error), a clean vet.

Signals: for compile errors, a small go/types program (`tjcheck`, built here) that
type-checks each package and prints every error's file:line:col and message; the
compiler words a few messages differently from go/types, and the alternatives are
given (`undeclared name: x` / `undefined: x`, …). For vet, `go vet -json`: each
finding's position and message. For successes, the packages the module defines.
"""

from __future__ import annotations

import json
import re
from typing import Any

from capture._lib import Workspace, sig

BUILD_RULE = "build/go-build"
BUILD_FAMILY = "go-build"
VET_RULE = "build/go-vet"
VET_FAMILY = "go-vet"

TJCHECK = r"""
// tjcheck: type-check package directories with go/types; one JSON line per error.
package main

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type diag struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
}

func main() {
	root := os.Args[1]
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	enc := json.NewEncoder(os.Stdout)
	report := func(pos token.Pos, msg string) {
		p := fset.Position(pos)
		rel, _ := filepath.Rel(root, p.Filename)
		enc.Encode(diag{File: rel, Line: p.Line, Col: p.Column, Msg: msg})
	}
	for _, dir := range os.Args[2:] {
		keep := func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }
		pkgs, err := parser.ParseDir(fset, filepath.Join(root, dir), keep, parser.AllErrors)
		if err != nil {
			enc.Encode(diag{Msg: err.Error()})
			continue
		}
		names := []string{}
		for n := range pkgs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			var files []*ast.File
			for _, f := range pkgs[n].Files {
				files = append(files, f)
			}
			conf := types.Config{Importer: imp, Error: func(err error) {
				te := err.(types.Error)
				report(te.Pos, te.Msg)
			}}
			conf.Check(n, fset, files, nil)
		}
	}
}
"""

GO_MOD = "module example.com/inventory\n\ngo 1.19\n"

STORE = """
package store

import (
	"fmt"
	"os"
	"strings"
)

type Item struct {
	SKU   string
	Name  string
	Count int
	Price float64
}

func Total(items []Item) int {
	t := 0
	for _, it := range items {
		t += it.Cuont
	}
	var scratch string
	return t + missingOffset
}

func Describe(it Item) string {
	label := strings.ToUpper(it.Name)
	return fmt.Sprintf("%s x%d", label, it.Count, it.Price)
}

func Value(items []Item) float64 {
	var v int
	for _, it := range items {
		v += it.Price * float64(it.Count)
	}
	return v
}
"""

PRICING = """
package pricing

import "strconv"

type Rule struct {
	Min   int
	Ratio float64
}

func Apply(rules []Rule, n int, base float64) float64 {
	for _, r := range rules {
		if n >= r.Min {
			return base * r.Ratio
		}
	}
	return strconv.Itoa(base)
}

func Parse(s string) Rule {
	n, err := strconv.Atoi(s)
	return Rule{Min: n, Ratio: 1.0, Name: s}
}
"""

MAIN = """
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"example.com/inventory/pricing"
	"example.com/inventory/store"
)

func main() {
	items := []store.Item{{SKU: "a1", Name: "bolt", Count: 3, Price: 0.25}}
	b, _ := json.Marshal(items)
	fmt.Fprintln(os.Stdout, string(b), store.Total(items), pricing.Apply(nil, 1, 2))
}
"""

GOOD_STORE = """
package store

import "fmt"

type Item struct {
	SKU   string
	Name  string
	Count int
	Price float64
}

func Total(items []Item) int {
	t := 0
	for _, it := range items {
		t += it.Count
	}
	return t
}

func Describe(it Item) string { return fmt.Sprintf("%s x%d", it.Name, it.Count) }
"""

GOOD_PRICING = """
package pricing

type Rule struct {
	Min   int
	Ratio float64
}

func Apply(rules []Rule, n int, base float64) float64 {
	for _, r := range rules {
		if n >= r.Min {
			return base * r.Ratio
		}
	}
	return base
}
"""

SYNTAX = """
package store

func Broken(items []Item) int {
	total := 0
	for _, it := range items {
		total += it.Count
	return total
}

func Other() int { return 1 }
"""

VET_PKG = """
package report

import (
	"fmt"
	"sync"
)

type Counter struct {
	mu sync.Mutex
	n  int
}

type Row struct {
	Name  string `json:"name" xml:name`
	Total int    `json:"total"`
}

func (c Counter) Value() int { return c.n }

func Print(name string, n int) {
	fmt.Printf("%s has %d items\\n", n, name)
	fmt.Println("done %d", n)
	n = n
	return
	fmt.Println("unreachable")
}

func Sum(rows []Row) (total int) {
	for _, r := range rows {
		total += r.Total
	}
	fmt.Printf("%d rows, %d total\\n", len(rows))
	return
}
"""

VET_PKG2 = """
package audit

import (
	"errors"
	"fmt"
	"log"
)

var ErrEmpty = errors.New("empty")

func Check(xs []int) error {
	if len(xs) == 0 {
		log.Printf("check: %v items", xs, len(xs))
		return fmt.Errorf("check failed: %w %w", ErrEmpty)
	}
	for i := 0; i < len(xs); i++ {
		if xs[i] == xs[i] {
			continue
		}
	}
	return nil
}
"""

# The compiler (types2) and go/types word a few errors differently.
_ALTS = [
    (re.compile(r"^undeclared name: (\w+)$"), "undefined: {0}"),
    (re.compile(r'^"([^"]+)" imported but not used$'), 'imported and not used: "{0}"'),
    (re.compile(r"^(\w+) declared but not used$"), "{0} declared and not used"),
    (re.compile(r"^(cannot use .+ as) (\S+) value in (.+)$"), "{0} type {1} in {2}"),
    (re.compile(r"^unknown field (\w+) in struct literal$"), "unknown field '{0}' in struct literal"),
]


def _type_signals(ws: Workspace, module: str, dirs: list[str]) -> list[Any]:
    out = ws.sh(f"{ws.path('tjcheck/tjcheck')} {ws.path(module)} {' '.join(dirs)}", module, check=False)
    sigs: list[Any] = []
    for line in out.splitlines():
        d = json.loads(line)
        if not d.get("file"):
            continue
        msg = d["msg"]
        alts = []
        for rx, tmpl in _ALTS:
            m = rx.match(msg)
            if m:
                alts.append(tmpl.format(*m.groups()))
        if re.match(r"^\w+ declared but not used$", msg):
            alts.append("declared but not used: " + msg.split()[0])
            alts.append(msg.split()[0] + " declared but not used")
        sigs.append(sig("error_location", f"{d['file']}:{d['line']}:{d['col']}"))
        sigs.append(sig("error_message", msg, *alts))
    return sigs


def _vet_signals(ws: Workspace, module: str) -> list[Any]:
    out = ws.sh("go vet -json ./... 2>&1; true", module)
    root = str(ws.path(module)) + "/"
    sigs: list[Any] = []
    # The JSON objects (one per package) are interleaved with `# pkg` lines.
    for block in re.findall(r"^\{.*?^\}", out, re.MULTILINE | re.DOTALL):
        for analyzers in json.loads(block).values():
            for findings in analyzers.values():
                for f in findings:
                    sigs.append(sig("finding_location", f["posn"].removeprefix(root)))
                    sigs.append(sig("finding_message", f["message"]))
    return sigs


def capture(ws: Workspace) -> list[dict[str, Any]]:
    ws.require("go")
    ws.env.update({"GOPROXY": "off", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0", "GOTOOLCHAIN": "local"})
    ws.env["GOCACHE"] = str(ws.path("gocache"))
    versions = {"go": ws.version(["go", "version"])}
    ws.write("tjcheck/go.mod", "module tjcheck\n\ngo 1.19\n")
    ws.write("tjcheck/main.go", TJCHECK)
    ws.sh("go build -o tjcheck .", "tjcheck")
    fixtures: list[dict[str, Any]] = []

    def add(id: str, rule: str, family: str, r: Any, signals: list[Any], source: str) -> None:
        fixtures.append(
            ws.fixture(id, rule, r, family=family, signals=signals, signal_source=source, tool_version=versions)
        )

    type_source = "go/types check of each package (tjcheck): file:line:col and message of every error"
    ws.write("inv/go.mod", GO_MOD)
    ws.write("inv/store/store.go", STORE)
    ws.write("inv/pricing/pricing.go", PRICING)
    ws.write("inv/cmd/inventory/main.go", MAIN)
    r = ws.run("go build ./...", "inv")
    add(
        "go-build-type-errors", BUILD_RULE, BUILD_FAMILY, r, _type_signals(ws, "inv", ["store", "pricing"]), type_source
    )

    r = ws.run("go vet ./...", "inv")
    add(
        "go-vet-type-errors",
        VET_RULE,
        VET_FAMILY,
        r,
        _type_signals(ws, "inv", ["store", "pricing"]),
        type_source + " (vet type-checks before analysing)",
    )

    ws.write("inv/store/store.go", GOOD_STORE)
    ws.write("inv/store/broken.go", SYNTAX)
    ws.write("inv/pricing/pricing.go", GOOD_PRICING)
    r = ws.run("go build ./...", "inv")
    # A syntax error: go/parser reports it as `file:line:col: message`.
    parse = ws.sh(f"gofmt -l {ws.path('inv/store/broken.go')} 2>&1; true", "inv")
    m = re.search(r"broken\.go:(\d+):(\d+): (.+)", parse)
    syntax_sigs = [sig("error_location", f"store/broken.go:{m.group(1)}")] if m else []
    add(
        "go-build-syntax-error",
        BUILD_RULE,
        BUILD_FAMILY,
        r,
        [*syntax_sigs, sig("package", "# example.com/inventory/store")],
        "gofmt (go/parser) on the broken file: the line of the syntax error; the package it is in",
    )
    ws.sh("rm store/broken.go", "inv")

    packages = ["example.com/inventory/store", "example.com/inventory/pricing", "example.com/inventory/cmd/inventory"]
    pkg_sigs = [sig("package", p) for p in packages]
    r = ws.run("go build -a -v ./...", "inv")
    add(
        "go-build-verbose-success",
        BUILD_RULE,
        BUILD_FAMILY,
        r,
        pkg_sigs,
        "the packages the module defines (-v lists each package built)",
    )
    r = ws.run("go build -a -x -v -o /dev/null ./cmd/inventory", "inv")
    add(
        "go-build-x-large",
        BUILD_RULE,
        BUILD_FAMILY,
        r,
        pkg_sigs,
        "the packages the module defines (-v lists each package built)",
    )

    ws.write("vet/go.mod", "module example.com/vetdemo\n\ngo 1.19\n")
    ws.write("vet/report/report.go", VET_PKG)
    ws.write("vet/audit/audit.go", VET_PKG2)
    r = ws.run("go vet ./...", "vet")
    add(
        "go-vet-findings",
        VET_RULE,
        VET_FAMILY,
        r,
        _vet_signals(ws, "vet"),
        "go vet -json: posn and message of every finding",
    )
    ws.write("clean/go.mod", "module example.com/clean\n\ngo 1.19\n")
    ws.write("clean/store/store.go", GOOD_STORE)
    r = ws.run("go vet ./...", "clean")
    add("go-vet-clean", VET_RULE, VET_FAMILY, r, [], "none: go vet -json reports no findings")
    return fixtures
