package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
)

// A repository is trusted only after the user says so. Until then its
// settings (.ponder/settings.json and .ponder/settings.local.json) may only
// narrow what ponder does: their deny and ask rules count, and so does
// everything that cannot widen permissions or send work elsewhere. What
// counts from an untrusted project is listed here, field by field; any
// other setting, including any added to ponder later, is ignored until the
// folder is trusted:
//
//   - permissions.deny, permissions.ask: they only narrow.
//   - permissions.defaultMode when it is "default" or "plan" (the others
//     would let edits or everything through).
//   - planMode.* except planMode.model and planMode.commands, retry.*,
//     context.*: they tune how
//     ponder works, not what it may do.
//   - shellEnvironment.exclude, and shellEnvironment.inherit when it is
//     "core" or "none": they only take variables away.
//
// Ignored until trusted: mcpServers and the project's .mcp.json (each
// server is a program ponder would start, or a service it would send the
// code to); hooks (each is a command ponder would run); permissions.allow,
// permissions.modeRules and planMode.commands (allow rules); permissions.defaultMode
// acceptEdits; plansDirectory (a directory of the project's choosing that
// ponder writes into: one that others may write, or one whose files
// configure what runs); model, provider, models.*, effort.*, planMode.model (which model and
// which vendor receive the code, at whose cost); shellEnvironment.include,
// .set and an "all" inherit (a project could pass secrets to commands or
// set LD_PRELOAD for every command, read-only ones included); and
// trustedFolders, which is read from the user's settings only. bypass-
// Permissions is never taken from any settings file, trusted or not.

// Ignored is one setting of an untrusted project that did not count.
type Ignored struct {
	File string
	// Name is the setting's dotted name; Value its value in short.
	Name, Value string
}

func (i Ignored) String() string { return i.Name + " in " + i.File }

// narrow returns what of an untrusted project's settings counts, and the
// dotted names of the settings it ignores.
func narrow(s Settings) (Settings, []string) {
	var n Settings
	n.Permissions.Deny = s.Permissions.Deny
	n.Permissions.Ask = s.Permissions.Ask
	if m := s.Permissions.DefaultMode; m != nil && (*m == "default" || *m == "plan") {
		n.Permissions.DefaultMode = m
	}
	n.PlanMode = s.PlanMode
	n.PlanMode.Model = nil
	if f := s.PlanMode.ScopeFence; f != nil && !*f {
		// Turning the fence off loosens accept-edits.
		n.PlanMode.ScopeFence = nil
	}
	n.PlanMode.Commands = nil
	n.Retry = s.Retry
	n.Context = s.Context
	// Only sandbox settings that tighten it are left in a project's
	// layer (projectSandbox), so they count untrusted too.
	n.Sandbox = s.Sandbox
	n.ShellEnvironment.Exclude = s.ShellEnvironment.Exclude
	if i := s.ShellEnvironment.Inherit; i != nil && (*i == "core" || *i == "none") {
		n.ShellEnvironment.Inherit = i
	}
	return n, setDifference(setPaths(s), setPaths(n))
}

// setPaths lists the dotted JSON names of the settings s sets.
func setPaths(s Settings) []string {
	var out []string
	eachSet(s, func(name string, _ reflect.Value) { out = append(out, name) })
	return out
}

// eachSet calls f with the dotted JSON name and value of every setting s
// sets.
func eachSet(s Settings, f func(string, reflect.Value)) {
	var walk func(v reflect.Value, prefix string)
	walk = func(v reflect.Value, prefix string) {
		t := v.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			fv := v.Field(i)
			if fv.Kind() == reflect.Struct {
				walk(fv, prefix+name+".")
				continue
			}
			if !fv.IsZero() && (fv.Kind() != reflect.Slice && fv.Kind() != reflect.Map || fv.Len() > 0) {
				f(prefix+name, fv)
			}
		}
	}
	walk(reflect.ValueOf(s), "")
}

// shortValue renders a setting's value for a person: list items joined
// by commas, a string as it is, anything else as JSON; cut when long.
func shortValue(v reflect.Value) string {
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	var text string
	switch v.Kind() {
	case reflect.String:
		text = v.String()
	case reflect.Map:
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, fmt.Sprint(k.Interface()))
		}
		slices.Sort(keys)
		text = strings.Join(keys, ", ")
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = fmt.Sprint(v.Index(i).Interface())
		}
		text = strings.Join(parts, ", ")
	default:
		data, _ := json.Marshal(v.Interface())
		text = string(data)
	}
	if r := []rune(text); len(r) > 120 {
		text = string(r[:119]) + "…"
	}
	return text
}

func setDifference(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// trustFile is <config>/trust.json: the answers the user gave to "do you
// trust this folder?", by canonical project root.
type trustFile struct {
	Folders map[string]trustEntry `json:"folders"`
}

type trustEntry struct {
	Trusted  bool      `json:"trusted"`
	Answered time.Time `json:"answered"`
}

func trustPath(configDir string) string { return filepath.Join(configDir, "trust.json") }

// readTrust reads the remembered answers; a missing file has none.
func readTrust(configDir string) (trustFile, error) {
	var tf trustFile
	data, err := os.ReadFile(trustPath(configDir))
	if errors.Is(err, fs.ErrNotExist) {
		return tf, nil
	}
	if err != nil {
		return tf, err
	}
	if err := json.Unmarshal(data, &tf); err != nil {
		return trustFile{}, fmt.Errorf("%s: %v", trustPath(configDir), err)
	}
	return tf, nil
}

// RememberTrust records the user's answer for the project at root, so
// that the interactive interface does not ask again. The file is replaced
// atomically.
func RememberTrust(configDir, root string, trusted bool, now time.Time) error {
	tf, err := readTrust(configDir)
	if err != nil {
		tf = trustFile{} // a broken file is replaced, not kept
	}
	if tf.Folders == nil {
		tf.Folders = map[string]trustEntry{}
	}
	tf.Folders[resolved(root)] = trustEntry{Trusted: trusted, Answered: now.UTC()}
	data, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(trustPath(configDir), append(data, '\n'))
}

// writeAtomic replaces path with data: written to a temporary file in the
// same directory, synced, then renamed over it.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".trust-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// listedIn reports whether root is one of folders (from trustedFolders)
// or lies below one of them.
func listedIn(root string, folders []string, home string) bool {
	canon := resolved(root)
	for _, f := range folders {
		if f == "~" || strings.HasPrefix(f, "~/") {
			if home == "" {
				continue
			}
			f = filepath.Join(home, strings.TrimPrefix(f[1:], "/"))
		}
		if isAncestorOrSame(resolved(f), canon) {
			return true
		}
	}
	return false
}
