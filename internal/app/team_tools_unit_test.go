package app

import (
	"reflect"
	"testing"
)

// A teammate started by a lead has the lead's --tools whatever its record
// kept; one started by hand has its own, else its record's when it
// resumes, else every tool.
func TestTeammateTools(t *testing.T) {
	kept := []string{"Read"}
	cases := []struct {
		name     string
		tools    []string
		leadMode string
		recorded *[]string
		resuming bool
		want     []string
	}{
		{"by a lead with every tool", nil, "acceptEdits", &kept, true, nil},
		{"by a lead with a list", []string{"Grep"}, "default", &kept, true, []string{"Grep"}},
		{"by hand with a list", []string{"Grep"}, "", &kept, true, []string{"Grep"}},
		{"by hand, resuming", nil, "", &kept, true, []string{"Read"}},
		{"by hand, resuming, none kept", nil, "", nil, true, nil},
		{"by hand, new session", nil, "", &kept, false, nil},
		{"by hand, no tool at all", []string{}, "", &kept, true, []string{}},
	}
	for _, c := range cases {
		opts := &Options{Tools: c.tools, Team: &TeamOptions{Team: "core", Name: "alice", LeadMode: c.leadMode}}
		if got := teammateTools(opts, c.recorded, c.resuming); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %#v, want %#v", c.name, got, c.want)
		}
	}
}
