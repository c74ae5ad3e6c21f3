package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestClientsMatchPins checks that the third-party clients the protocol
// tests drive are the versions scripts/e2e-clients/package.json pins, so a
// stale cache cannot make a protocol test pass against an old client.
func TestClientsMatchPins(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "scripts", "e2e-clients", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatalf("scripts/e2e-clients/package.json: %v", err)
	}
	if len(manifest.Dependencies) == 0 {
		t.Fatal("scripts/e2e-clients/package.json pins no clients")
	}
	for pkg, want := range manifest.Dependencies {
		dir := nodeModules(t, pkg)
		raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(pkg), "package.json"))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Version string `json:"version"`
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s/package.json: %v", pkg, err)
		}
		if got.Version != want {
			t.Errorf("%s is %s in %s, package.json pins %s", pkg, got.Version, dir, want)
		}
	}
}
