package shellclass

import (
	"strings"
	"testing"
)

// evaluationAttacks are lines where bash evaluates variable text as
// arithmetic (a subscript in it runs command substitutions) or expands it
// as a prompt. Each must be opaque, not merely not read-only: an allow
// rule for the visible command (echo, ls, git status) must not cover the
// commands hidden in the value.
var evaluationAttacks = []attackCase{
	{`x="a[\$(touch p)]"; echo $((x))`, `variable "x"`, true},
	{`x="a[\$(touch p)]"; echo $[x]`, `variable "x"`, true},
	{`x='$(touch p)'; echo ${x@P}`, "${x@P}", true},
	{`echo ${HOME@P}`, "${HOME@P}", true},
	{`ls; let "a[\$(touch p)]=1"`, "command substitution", true},
	{`let x=y`, `variable "y"`, true},
	{`git status; x="a[\$(touch p)]"; [[ $x -eq 1 ]]`, `variable "x"`, true},
	{`[[ $x -ne 1 ]]`, `variable "x"`, true},
	{`[[ 1 -lt $x ]]`, `variable "x"`, true},
	{`[[ x -ge 1 ]]`, `variable "x"`, true},
	{`read -r x < payload.txt; ls -w $((x))`, `variable "x"`, true},
	{`echo ${a[$x]}`, `variable "x"`, true},
	{`echo ${a[x]}`, `variable "x"`, true},
	{`for ((i=x; i<3; i++)); do echo $i; done`, `variable "x"`, true},
	{`echo ${s:$off:$len}`, `variable "len"`, true},
	{`echo ${s:off}`, `variable "off"`, true},
	{`declare -i n; n=$x`, "integer variable", true},
	{`typeset -i n=x`, "integer variable", true},
	{`((x))`, `variable "x"`, true},
	{`(( y = x + 1 ))`, `variable "x"`, true},
	{`echo ${!x}`, `variable "x"`, true},
	{`[[ -v $x ]]`, "not a plain variable name", true},
	{`[ -v "$x" ]`, "subscript", true},
	{`test -v 'a[$(touch p)]'`, "subscript", true},
	{`read 'a[$(touch p)]' < f`, "not a plain name", true},
	{`read $name < f`, "could turn out to be any option", true},
	{`printf -v 'a[$(touch p)]' x`, "not a plain name", true},
	{`unset 'a[$(touch p)]'`, "not a plain variable name", true},
	{`mapfile 'a[$(touch p)]' < f`, "not a plain name", true},
	{`echo $(( $(cat f) ))`, "command output", true},
	{`echo $(( a[$(cat f)] ))`, "command output", true},
	{"echo $(( `cat f` ))", "command output", true},
	{`a[$x]=1`, `variable "x"`, true},
	{`a=([$x]=1)`, `variable "x"`, true},
}

func TestEvaluatedTextMakesTheLineOpaque(t *testing.T) {
	for _, tc := range evaluationAttacks {
		got := Classify(tc.cmd)
		if got.ReadOnly || got.Opaque == "" {
			t.Errorf("Classify(%q): read-only %v, opaque %q (reason %q)", tc.cmd, got.ReadOnly, got.Opaque, got.Reason)
			continue
		}
		if !strings.Contains(got.Opaque, tc.reason) && !strings.Contains(got.Reason, tc.reason) {
			t.Errorf("Classify(%q) says %q / %q, want it to mention %q", tc.cmd, got.Reason, got.Opaque, tc.reason)
		}
	}
	// Numbers the line sets itself stay harmless.
	for _, cmd := range []string{
		"x=5; echo $((x + 1))", "for ((i=0; i<3; i++)); do echo $i; done", "echo ${s:1:2}",
		"a=(1 2); echo ${a[1]}", "n=3; echo ${a[n]}", "[[ $# -eq 1 ]]", "echo $((RANDOM % 6))",
		"for i in 1 2 3; do echo $((i*2)); done", "let y=1+2", "echo ${x@Q}",
	} {
		if got := Classify(cmd); !got.ReadOnly || got.Opaque != "" {
			t.Errorf("Classify(%q) = read-only %v, reason %q, opaque %q", cmd, got.ReadOnly, got.Reason, got.Opaque)
		}
	}
}
