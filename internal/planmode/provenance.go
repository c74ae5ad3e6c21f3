package planmode

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Provenance is what the project looked like when a plan was put up for
// approval: the git commit checked out and a hash of each file the plan
// names ("" for one that did not exist). An approval hours later, or a
// resume, compares the files with it and names those that changed.
//
// The commit is read from the repository's files, not by running git: a
// repository's configuration can make git run programs of its choosing
// (fsmonitor, filters), and a plan is often written in a repository not
// yet trusted. For the same reason ponder records no list of dirty files
// from git; the hashes of the planned files are what an approval needs.
type Provenance struct {
	// Plan is the hash of the plan's text: the same plan put up again
	// (a pending approval asked again on resume) keeps its provenance.
	Plan   string            `json:"plan"`
	Commit string            `json:"commit,omitempty"`
	Hashes map[string]string `json:"hashes,omitempty"`
	At     time.Time         `json:"at"`
}

// maxHashed bounds the bytes read to hash one planned file.
const maxHashed = 64 << 20

// recordProvenanceLocked notes the provenance of plan; the caller holds
// s.mu.
func (s *Session) recordProvenanceLocked(plan string) {
	if s.cfg.ProjectDir == "" {
		return
	}
	sum := sha256.Sum256([]byte(plan))
	id := hex.EncodeToString(sum[:])
	if s.st.Provenance != nil && s.st.Provenance.Plan == id {
		return
	}
	o := ParseOutline(plan)
	p := &Provenance{Plan: id, Commit: gitHead(s.cfg.ProjectDir), Hashes: map[string]string{}, At: s.cfg.Now().UTC()}
	for _, f := range o.Files {
		if path, ok := s.insideProject(f); ok {
			p.Hashes[f] = hashFile(path)
		}
	}
	s.st.Provenance = p
}

// StaleFiles lists the planned files that changed since the plan was put
// up for approval (created, changed or removed), sorted; nil when none
// did or nothing was recorded.
func (s *Session) StaleFiles() []string {
	s.mu.Lock()
	p := s.st.Provenance
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	var out []string
	for f, h := range p.Hashes {
		if path, ok := s.insideProject(f); ok && hashFile(path) != h {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// Provenance returns what was recorded when the plan was put up for
// approval, if anything.
func (s *Session) Provenance() (Provenance, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.Provenance == nil {
		return Provenance{}, false
	}
	return *s.st.Provenance, true
}

// StaleNotice says which planned files changed since the plan was
// written, or "" when none did.
func StaleNotice(files []string) string {
	if len(files) == 0 {
		return ""
	}
	return "Since the plan was written, files it names changed: " + strings.Join(files, ", ") +
		". The plan may no longer fit them; re-plan, or approve knowing that."
}

// ReplanFeedback is what the model reads when the user asks for a new
// plan because planned files changed, followed by the user's own words.
func (s *Session) ReplanFeedback(more string) string {
	text := "Files this plan names changed since you wrote it: " + strings.Join(s.StaleFiles(), ", ") +
		". Read them again and revise the plan to fit what they hold now, then ask for approval again."
	if strings.TrimSpace(more) != "" {
		text += "\n\n" + more
	}
	return text
}

// insideProject resolves a planned path against the project and says
// whether it stays inside.
func (s *Session) insideProject(p string) (string, bool) {
	root := filepath.Clean(s.cfg.ProjectDir)
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return p, true
}

// hashFile is the SHA-256 of a regular file's content (up to maxHashed
// bytes), "" when there is no such file, and "unreadable" when it cannot
// be read.
func hashFile(path string) string {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return ""
		}
		return "unreadable"
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "unreadable"
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxHashed)); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}

// gitHead reads the commit checked out in the repository at or above dir
// from its files: HEAD, the ref it names, or packed-refs. It returns ""
// when there is no repository or the commit cannot be read.
func gitHead(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		gitDir := filepath.Join(d, ".git")
		if st, err := os.Stat(gitDir); err == nil {
			if !st.IsDir() {
				// A worktree or submodule: "gitdir: PATH".
				data, err := os.ReadFile(gitDir)
				rest, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
				if err != nil || !ok {
					return ""
				}
				if !filepath.IsAbs(rest) {
					rest = filepath.Join(d, rest)
				}
				gitDir = rest
			}
			return readHead(gitDir)
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// readHead resolves HEAD in a git directory.
func readHead(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(data))
	ref, ok := strings.CutPrefix(head, "ref: ")
	if !ok {
		return head
	}
	if strings.Contains(ref, "..") {
		return ""
	}
	// A linked worktree keeps its refs in the common directory.
	dirs := []string{gitDir}
	if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		dirs = append(dirs, c)
	}
	for _, g := range dirs {
		if data, err := os.ReadFile(filepath.Join(g, filepath.FromSlash(ref))); err == nil {
			return strings.TrimSpace(string(data))
		}
		if f, err := os.Open(filepath.Join(g, "packed-refs")); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if id, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref {
					f.Close()
					return id
				}
			}
			f.Close()
		}
	}
	return ""
}
