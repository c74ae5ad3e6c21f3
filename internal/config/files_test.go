package config

import "testing"

// A project's settings may lower the bound on written files, not raise it.
func TestProjectFilesMayOnlyLowerTheBound(t *testing.T) {
	lower, higher := 8, 1024
	s := Settings{Files: Files{MaxWriteMiB: &lower}}
	if w := projectFiles("p", &s); len(w) != 0 || s.Files.MaxWriteMiB == nil {
		t.Fatalf("a lower bound was dropped: %v", w)
	}
	s = Settings{Files: Files{MaxWriteMiB: &higher}}
	if w := projectFiles("p", &s); len(w) != 1 || s.Files.MaxWriteMiB != nil {
		t.Fatalf("a higher bound was kept: %v", w)
	}
	zero := 0
	if f, _ := validate(Settings{Files: Files{MaxWriteMiB: &zero}}); f != "files.maxWriteMiB" {
		t.Fatalf("0 MiB passed validation (%q)", f)
	}
}
