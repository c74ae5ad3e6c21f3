package permission

import (
	"fmt"
	"testing"
)

func TestListedNamesEachRuleAndWhereItCameFrom(t *testing.T) {
	e, err := NewEngine(Rules{Deny: []string{"Bash(rm:*)"}, Sets: []RuleSet{
		{Source: SourceUser, File: "/home/u/.ponder/settings.json", Allow: []string{"Bash(go test:*)"}, Ask: []string{"WebFetch"}},
	}}, t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := e.AddAllow("Edit(src/**)"); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(e.Listed())
	want := "[{deny Bash(rm:*) command line} {ask WebFetch /home/u/.ponder/settings.json} {allow Bash(go test:*) /home/u/.ponder/settings.json} {allow Edit(src/**) this session}]"
	if got != want {
		t.Fatalf("listed\n got %s\nwant %s", got, want)
	}
}
