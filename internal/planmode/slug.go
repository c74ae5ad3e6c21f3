package planmode

import (
	"os"
	"path/filepath"
	"strings"
)

// slugTries bounds the attempts to find a name no plan file uses yet.
const slugTries = 10

// maxTaskWords is how many words of the task a name may start with.
const maxTaskWords = 4

// uniqueSlug makes a plan file name that no file in dir uses, trying up to
// slugTries random names. With a task hint the name starts with up to four
// plain words of it, followed by an adjective and a noun
// ("add-oauth-login-brisk-harbor"); without one it is adjective, verb and
// noun ("brisk-sorting-harbor").
func uniqueSlug(dir, hint string, intn func(int) int) string {
	words := taskWords(hint)
	var slug string
	for range slugTries {
		if len(words) > 0 {
			slug = strings.Join(words, "-") + "-" + pick(adjectives[:], intn) + "-" + pick(nouns[:], intn)
		} else {
			slug = pick(adjectives[:], intn) + "-" + pick(verbs[:], intn) + "-" + pick(nouns[:], intn)
		}
		if _, err := os.Lstat(filepath.Join(dir, slug+".md")); os.IsNotExist(err) {
			break
		}
	}
	return slug
}

func pick(list []string, intn func(int) int) string { return list[intn(len(list))] }

// fillerWords are left out of task words: they say nothing about the task.
var fillerWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "for": true, "and": true,
	"or": true, "in": true, "on": true, "at": true, "by": true, "with": true, "from": true,
	"into": true, "is": true, "are": true, "be": true, "it": true, "this": true, "that": true,
	"please": true, "can": true, "could": true, "would": true, "you": true, "we": true,
	"i": true, "me": true, "my": true, "our": true, "let": true, "lets": true, "so": true,
	"some": true, "all": true, "as": true, "up": true, "how": true, "what": true, "should": true,
}

// taskWords extracts up to four plain words of a task description: ASCII
// letters and digits only, lower case, filler words dropped, each at most
// 16 characters, so the name is safe on any file system.
func taskWords(task string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(task), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if fillerWords[w] || len(w) > 16 || len(w) < 2 {
			continue
		}
		out = append(out, w)
		if len(out) == maxTaskWords {
			break
		}
	}
	return out
}
