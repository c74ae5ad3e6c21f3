package app

import (
	"strings"
	"testing"
)

func TestContextUseSummary(t *testing.T) {
	u := ContextUse{Model: "m", Tokens: 50_000, Window: 200_000, CompactAt: 0.85, Messages: 4}
	s := u.Summary()
	for _, want := range []string{"Context: 50,000 of 200,000 tokens (25%) for m, 4 messages.", "[" + strings.Repeat("█", 10) + strings.Repeat("·", 30) + "]", "compacted at 85%"} {
		if !strings.Contains(s, want) {
			t.Fatalf("summary lacks %q:\n%s", want, s)
		}
	}
	u.Estimated, u.CompactAt = true, 0
	s = u.Summary()
	if !strings.Contains(s, "about 50,000") || !strings.Contains(s, "estimated") || !strings.Contains(s, "compaction is off") {
		t.Fatalf("summary:\n%s", s)
	}
	if thousands(1234567) != "1,234,567" || thousands(999) != "999" {
		t.Fatal(thousands(1234567))
	}
}
