package planmode

import (
	"strings"
	"testing"
)

// deniedWords must never appear in any plan-name word list.
var deniedWords = []string{
	"dying", "killing", "shooting", "crashing", "bleeding", "naked", "drunk",
	"fat", "ugly", "stupid", "crazy", "dead", "bomb", "gun", "slave", "master",
	"virgin", "kill", "murder", "blood", "death", "hate", "war", "weapon",
	"drug", "cancer", "suicide", "idiot", "dumb", "damn", "hell", "sexy", "nude",
	"hot", "knife", "poison", "grave", "corpse", "cock", "beaver", "cherry",
	"melon", "banana", "god", "devil", "church", "crying", "sinking", "hunting",
	"stabbing", "smoking", "drinking",
}

func TestWordLists(t *testing.T) {
	lists := []struct {
		name  string
		words []string
		min   int
	}{
		{"adjectives", adjectives[:], 200},
		{"verbs", verbs[:], 100},
		{"nouns", nouns[:], 200},
	}

	denied := make(map[string]bool, len(deniedWords))
	for _, w := range deniedWords {
		denied[w] = true
	}
	owner := make(map[string]string) // word -> list it first appeared in

	for _, l := range lists {
		if len(l.words) < l.min {
			t.Errorf("%s: got %d words, want at least %d", l.name, len(l.words), l.min)
		}
		seen := make(map[string]bool, len(l.words))
		for i, w := range l.words {
			if n := len(w); n < 3 || n > 10 {
				t.Errorf("%s[%d] %q: length %d, want 3..10", l.name, i, w, n)
			}
			for _, r := range w {
				if r < 'a' || r > 'z' {
					t.Errorf("%s[%d] %q: contains %q, want only a-z", l.name, i, w, r)
					break
				}
			}
			if seen[w] {
				t.Errorf("%s[%d] %q: duplicate", l.name, i, w)
			}
			seen[w] = true
			if denied[w] {
				t.Errorf("%s[%d] %q: on the deny-list", l.name, i, w)
			}
			if l.name == "verbs" && !strings.HasSuffix(w, "ing") {
				t.Errorf("%s[%d] %q: want a present participle ending in \"ing\"", l.name, i, w)
			}
			if other, ok := owner[w]; ok && other != l.name {
				t.Errorf("%s[%d] %q: also in %s", l.name, i, w, other)
			}
			owner[w] = l.name
		}
	}
}
