package team

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The lead's mode is published for members that join, read back, and
// removed by the lead that wrote it only; ListMembers names the
// teammates with a record and nothing else in the directory.
func TestLeadModeAndMembers(t *testing.T) {
	dir := t.TempDir()
	if _, found, err := LoadLeadMode(dir, "core"); found || err != nil {
		t.Fatalf("no lead yet: found=%v err=%v", found, err)
	}
	if err := SaveLeadMode(dir, "core", "plan"); err != nil {
		t.Fatal(err)
	}
	if m, found, err := LoadLeadMode(dir, "core"); !found || err != nil || m != "plan" {
		t.Fatalf("LoadLeadMode = %q %v %v; want plan", m, found, err)
	}
	// Another process's file stays.
	p := filepath.Join(dir, "teams", "core", "lead.json")
	if err := os.WriteFile(p, []byte(`{"mode":"plan","pid":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ClearLeadMode(dir, "core"); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := LoadLeadMode(dir, "core"); !found {
		t.Fatal("a lead removed another lead's mode")
	}
	if err := SaveLeadMode(dir, "core", "default"); err != nil {
		t.Fatal(err)
	}
	if err := ClearLeadMode(dir, "core"); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := LoadLeadMode(dir, "core"); found {
		t.Fatal("the lead's own mode was not removed")
	}
	if err := os.WriteFile(p, []byte(`not json`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadLeadMode(dir, "core"); err == nil {
		t.Fatal("a broken lead file was read without an error")
	}
	if _, _, err := LoadLeadMode(dir, "../x"); err == nil {
		t.Fatal("a team name with a path was accepted")
	}

	for _, n := range []string{"bob", "alice"} {
		if err := (Record{Team: "core", Name: n, Lead: LeadName}).Save(dir); err != nil {
			t.Fatal(err)
		}
	}
	members := filepath.Join(dir, "teams", "core", "members")
	for _, junk := range []string{"lead.json", "notes.txt", ".tmp-x.json"} {
		if err := os.WriteFile(filepath.Join(members, junk), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ListMembers(dir, "core")
	if err != nil || !reflect.DeepEqual(got, []string{"alice", "bob"}) {
		t.Fatalf("ListMembers = %v %v; want [alice bob]", got, err)
	}
}
