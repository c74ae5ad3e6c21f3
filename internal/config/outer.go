package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// outerLayers reads the settings of the projects that hold the project
// root: a submodule, a vendored repository or any folder with its own
// .git or .ponder inside another project would otherwise shed that
// project's rules when ponder starts there. Each directory above the root
// is looked at, up to but not including the home directory (and never
// ponder's own configuration directory); its .ponder/settings.json and
// settings.local.json count only to narrow: their deny and ask rules,
// whatever the trust. The outermost project comes first.
func outerLayers(projectDir, configDir, home string) ([]Layer, error) {
	if projectDir == "" {
		return nil, nil
	}
	canonConfig := resolved(configDir)
	canonHome := resolved(home)
	var layers []Layer
	for d := filepath.Dir(filepath.Clean(projectDir)); ; d = filepath.Dir(d) {
		if home != "" && isAncestorOrSame(resolved(d), canonHome) {
			break
		}
		if isProjectDir(filepath.Join(d, ".ponder"), canonConfig) {
			var found []Layer
			for _, name := range []string{"settings.json", "settings.local.json"} {
				p := filepath.Join(d, ".ponder", name)
				data, err := os.ReadFile(p)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil {
					return nil, &Error{File: p, Msg: err.Error()}
				}
				s, _, err := parse(p, data)
				if err != nil {
					return nil, err
				}
				var n Settings
				n.Permissions.Deny = s.Permissions.Deny
				n.Permissions.Ask = s.Permissions.Ask
				found = append(found, Layer{File: p, Scope: ScopeOuter, Settings: n, Root: d})
			}
			layers = append(found, layers...)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return slices.Clip(layers), nil
}
