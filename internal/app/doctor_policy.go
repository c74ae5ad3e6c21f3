package app

import (
	"os"
	"strings"

	"github.com/ponder-agent/ponder/internal/sandbox"
)

// describeModes says, for ponder doctor, how commands run in each mode
// with the sandbox this system has.
func describeModes(available, workspace, required bool) []string {
	if !available {
		return []string{
			"plan, read-only agents: no shell commands (no sandbox)",
			"default, acceptEdits, bypassPermissions: commands run unconfined once allowed; the settings guard is the only line behind the permission rules",
		}
	}
	changing := "commands that change files, once allowed (a rule, a yes): confined to the workspace policy below; one the sandbox withheld something from may ask to run again outside it"
	bypass := "bypassPermissions: read-only commands confined to reading; the rest unconfined"
	switch {
	case !workspace && required:
		changing = "commands that change files: refused (sandbox.required, and no workspace policy here)"
		bypass = "bypassPermissions: read-only commands confined to reading; the rest refused (sandbox.required)"
	case !workspace:
		changing = "commands that change files, once allowed: unconfined (no workspace policy here); the settings guard is the second line"
	case required:
		changing = "commands that change files, once allowed: confined to the workspace policy below; never outside it (sandbox.required)"
		bypass = "bypassPermissions: every command confined (sandbox.required)"
	}
	return []string{
		"plan, read-only agents: every command confined to reading (writes only its scratch directory)",
		"default, acceptEdits: commands judged read-only confined to reading; " + changing,
		bypass,
	}
}

// describeWorkspace lists what the workspace policy lets commands write
// and what it keeps read-only inside that, as it stands now.
func describeWorkspace(w *sandbox.Workspace) []string {
	var out []string
	out = append(out, "writable: "+strings.Join(w.Writable, ", ")+", and a scratch TMPDIR per command")
	var ro []string
	for _, p := range w.ReadOnly {
		if _, err := os.Lstat(p); err == nil {
			ro = append(ro, p)
		}
	}
	if len(ro) == 0 {
		ro = []string{"(none of the listed files exists yet)"}
	}
	out = append(out, "read-only inside: "+strings.Join(ro, ", "))
	out = append(out, "caches of ponder's own: "+strings.Join(w.Env, " "))
	out = append(out, "everything else read-only; files Read deny rules cover unreadable; network as sandbox.network says (off unless set)")
	return out
}
