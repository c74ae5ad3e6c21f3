package builtin

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// binaryExtension returns a description when path's extension marks a
// format that is never text, and "" otherwise.
func binaryExtension(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	var kind string
	switch ext {
	case ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".webp", ".tif", ".tiff", ".psd", ".heic", ".avif":
		kind = "image"
	case ".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".odp":
		kind = "document"
	case ".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".jar", ".war", ".whl", ".deb", ".rpm", ".dmg", ".iso":
		kind = "archive"
	case ".exe", ".dll", ".so", ".dylib", ".o", ".a", ".lib", ".obj", ".class", ".pyc", ".pyo", ".wasm", ".bin":
		kind = "executable or object"
	case ".mp3", ".mp4", ".wav", ".flac", ".ogg", ".m4a", ".avi", ".mov", ".mkv", ".webm":
		kind = "audio or video"
	case ".ttf", ".otf", ".woff", ".woff2", ".eot":
		kind = "font"
	case ".db", ".sqlite", ".sqlite3", ".parquet":
		kind = "database"
	default:
		return ""
	}
	return kind + " file " + ext
}

func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// notFoundMessage explains a missing path and suggests near names in the
// same directory.
func notFoundMessage(path string) string {
	dir, base := filepath.Split(path)
	dir = filepath.Clean(dir)
	msg := fmt.Sprintf("File does not exist: %s.", path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return msg + fmt.Sprintf(" Its directory %s does not exist either.", dir)
	}
	if s := similarNames(base, ents); len(s) > 0 {
		for i := range s {
			s[i] = filepath.Join(dir, s[i])
		}
		msg += " Did you mean " + strings.Join(s, " or ") + "?"
	}
	return msg
}

// similarNames picks up to three entries whose names look like base: the
// same name in another case, the same stem with another extension, or a
// small edit away.
func similarNames(base string, ents []fs.DirEntry) []string {
	type cand struct {
		name  string
		score int
	}
	var cands []cand
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	lower := strings.ToLower(base)
	for _, e := range ents {
		name := e.Name()
		score := -1
		switch {
		case strings.ToLower(name) == lower:
			score = 0
		case stem != "" && strings.TrimSuffix(name, filepath.Ext(name)) == stem:
			score = 1
		case len(base) < 64 && len(name) < 64:
			if d := editDistance(lower, strings.ToLower(name)); d <= 2 && d < len(base) {
				score = 1 + d
			}
		}
		if score >= 0 {
			cands = append(cands, cand{name, score})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score < cands[j].score
		}
		return cands[i].name < cands[j].name
	})
	var out []string
	for i := 0; i < len(cands) && i < 3; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance of two short strings, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
