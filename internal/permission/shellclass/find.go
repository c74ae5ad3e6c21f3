package shellclass

import (
	"fmt"
	"strings"
)

// findValueTests are find primaries that take exactly one value, which is
// never itself a primary.
var findValueTests = map[string]bool{
	"-name": true, "-iname": true, "-path": true, "-ipath": true,
	"-wholename": true, "-iwholename": true, "-regex": true, "-iregex": true,
	"-lname": true, "-ilname": true, "-newer": true, "-anewer": true,
	"-cnewer": true, "-type": true, "-xtype": true, "-size": true,
	"-mtime": true, "-mmin": true, "-atime": true, "-amin": true,
	"-ctime": true, "-cmin": true, "-used": true, "-user": true,
	"-group": true, "-uid": true, "-gid": true, "-perm": true,
	"-links": true, "-inum": true, "-samefile": true, "-maxdepth": true,
	"-mindepth": true, "-fstype": true, "-context": true, "-printf": true,
	"-regextype": true, "-files0-from": true,
}

// findWriters are find primaries that write to a file.
var findWriters = map[string]bool{
	"-fprint": true, "-fprint0": true, "-fprintf": true, "-fls": true,
}

// findCmd checks find: -delete and the -fprint family write, and the
// commands of -exec, -execdir, -ok and -okdir must be read-only.
func findCmd(w *walker, prog string, args []arg) string {
	i := 0
	for i < len(args) && args[i].lit {
		t := args[i].text
		if t == "-H" || t == "-L" || t == "-P" || strings.HasPrefix(t, "-O") {
			i++
			continue
		}
		if t == "-D" {
			i += 2
			continue
		}
		break
	}
	// The paths find substitutes for {} start with a starting point, and
	// find takes any word starting with "-" for an expression, so they
	// cannot start with "-", unless "--" let such a starting point in.
	placeholderSafe := true
	for _, a := range args {
		if a.is("--") {
			placeholderSafe = false
		}
	}
	for ; i < len(args); i++ {
		a := args[i]
		if !a.lit {
			if reason := unsure(prog, a); reason != "" {
				return reason
			}
			continue
		}
		t := a.text
		switch {
		case findValueTests[t] || strings.HasPrefix(t, "-newer") && len(t) == len("-newerXY"):
			i++ // its value, whatever it looks like
		case t == "-delete":
			return `"find -delete" deletes files`
		case findWriters[t]:
			return fmt.Sprintf(`"find %s" writes to a file`, t)
		case t == "-exec" || t == "-execdir" || t == "-ok" || t == "-okdir":
			n, reason := w.findExec(t, args[i+1:], placeholderSafe)
			if reason != "" {
				return reason
			}
			i += n
		}
	}
	return ""
}

// findExec checks the command of an -exec style primary. It returns how
// many words it used, including the terminating ";" or "+".
func (w *walker) findExec(primary string, rest []arg, placeholderSafe bool) (int, string) {
	end, batch := -1, false
	for k, a := range rest {
		if a.is(";") {
			end = k
			break
		}
		if a.is("+") && k > 0 && rest[k-1].is("{}") {
			end, batch = k, true
			break
		}
	}
	if end < 0 {
		return len(rest), fmt.Sprintf(`"find %s" has no terminating ";" or "+"`, primary)
	}
	if end == 0 {
		return 1, fmt.Sprintf(`"find %s" has no command`, primary)
	}
	cmd := make([]arg, end)
	for k, a := range rest[:end] {
		cmd[k] = a
		if a.lit && strings.Contains(a.text, "{}") {
			before, _, _ := strings.Cut(a.text, "{}")
			safe := placeholderSafe && (before == "" || before[0] != '-')
			cmd[k] = arg{text: a.text, prefix: before, dashSafe: safe, single: !batch || a.text != "{}"}
		}
	}
	w.run(cmd, nil)
	return end + 1, ""
}

// fdCmd checks fd: the commands of -x/--exec and -X/--exec-batch must be
// read-only.
func fdCmd(w *walker, prog string, args []arg) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.lit {
			if reason := unsure(prog, a); reason != "" {
				return reason
			}
			continue
		}
		t := a.text
		if t == "--" {
			return ""
		}
		exec := t == "--exec" || t == "--exec-batch"
		if strings.HasPrefix(t, "--exec=") || strings.HasPrefix(t, "--exec-batch=") {
			return fmt.Sprintf("%q option %s is not checked", prog, t)
		}
		if c := shortCluster(a); strings.ContainsAny(c, "xX") {
			if last := c[len(c)-1]; last != 'x' && last != 'X' || strings.ContainsAny(c[:len(c)-1], "xX") {
				return fmt.Sprintf("%q option %s is not checked", prog, t)
			}
			exec = true
		}
		if !exec {
			continue
		}
		end := len(args)
		for k := i + 1; k < len(args); k++ {
			if args[k].is(";") {
				end = k
				break
			}
		}
		cmd := append([]arg(nil), args[i+1:end]...)
		if len(cmd) == 0 {
			return fmt.Sprintf("%q %s has no command", prog, t)
		}
		placeholder := false
		for k, c := range cmd {
			if c.lit && strings.Contains(c.text, "{") && strings.Contains(c.text, "}") {
				placeholder = true
				before, _, _ := strings.Cut(c.text, "{")
				cmd[k] = arg{text: c.text, prefix: before, dashSafe: before != "" && before[0] != '-', single: true}
			}
		}
		var extra []arg
		if !placeholder {
			extra = []arg{runtimeArg("(path)")}
		}
		w.run(cmd, extra)
		i = end
	}
	return ""
}

// findPrograms search directory trees and can run commands on what they
// find.
var findPrograms = family{
	"fd":     {check: fdCmd, runs: true},
	"fdfind": {check: fdCmd, runs: true},
	"find":   {check: findCmd, runs: true, escapes: &escapeSpec{writeLong: []string{"fprint", "fprint0", "fprintf", "fls"}, single: true}},
}
