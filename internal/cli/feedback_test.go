package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

func TestPlanFeedbackFiles(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, text string
		feedback   string
		notes      []event.Annotation
	}{
		{"markdown", "Use a token bucket.\n\n- line 3: which store keeps\n  the counters?\nline 7. add a test for bursts\n\nThanks.\n",
			"Use a token bucket.\n\n\nThanks.", []event.Annotation{{Line: 3, Comment: "which store keeps\nthe counters?"}, {Line: 7, Comment: "add a test for bursts"}}},
		{"json object", `{"feedback":"shorter","annotations":[{"line":2,"comment":"drop this"}]}`,
			"shorter", []event.Annotation{{Line: 2, Comment: "drop this"}}},
		{"json list", `[{"line":1,"comment":"rename"}]`, "", []event.Annotation{{Line: 1, Comment: "rename"}}},
		{"plain words", "Lines of code should be fewer.", "Lines of code should be fewer.", nil},
	}
	for _, tc := range cases {
		p := filepath.Join(dir, tc.name)
		os.WriteFile(p, []byte(tc.text), 0o644)
		fb, err := readPlanFeedback(p)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if fb.Feedback != tc.feedback || len(fb.Annotations) != len(tc.notes) {
			t.Fatalf("%s: %+v", tc.name, fb)
		}
		for i := range tc.notes {
			if fb.Annotations[i] != tc.notes[i] {
				t.Fatalf("%s: annotation %d = %+v, want %+v", tc.name, i, fb.Annotations[i], tc.notes[i])
			}
		}
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"annotations":[{"line":"three"}]}`), 0o644)
	if _, err := readPlanFeedback(bad); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Fatalf("broken JSON: %v", err)
	}
	if _, err := readPlanFeedback(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "--plan-feedback") {
		t.Fatalf("missing file: %v", err)
	}
}
