package shellclass

import (
	"strings"
	"testing"
)

func FuzzClassify(f *testing.F) {
	for _, tc := range classifyCases {
		f.Add(tc.cmd)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		r := Classify(cmd)
		if r.ReadOnly && r.Reason != "" {
			t.Fatalf("Classify(%q) is read-only with reason %q", cmd, r.Reason)
		}
		if !r.ReadOnly && r.Reason == "" {
			t.Fatalf("Classify(%q) is not read-only but gives no reason", cmd)
		}
		// Both reasons below mean the walk itself has a gap.
		if strings.HasPrefix(r.Reason, "internal error") || strings.Contains(r.Reason, "could not be examined") {
			t.Fatalf("Classify(%q) failed: %s", cmd, r.Reason)
		}
	})
}
