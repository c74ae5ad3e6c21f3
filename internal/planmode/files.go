package planmode

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/permission"
)

// PlansDir is the directory plan files go to, created on demand: the
// plansDirectory setting when it stays inside the project and outside
// every directory whose files decide what runs (.git, .ponder, hooks, …),
// else <config>/plans. The path is canonical (symlinks resolved), so plan-file
// paths compare reliably.
func (s *Session) PlansDir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.plansDirLocked()
}

func (s *Session) plansDirLocked() string {
	if s.plansDir == "" {
		s.plansDir = PlansDir(s.cfg)
	}
	return s.plansDir
}

// PlansDir resolves where the plans of a project go (see Session.PlansDir),
// creating the directory; problems are reported through cfg.Logf.
func PlansDir(cfg Config) string {
	cfg.defaults()
	dir := filepath.Join(cfg.ConfigDir, "plans")
	if custom := cfg.PlansDirectory; custom != "" {
		inside, resolved := insideProject(cfg.ProjectDir, custom)
		switch why := protectedPlansDir(cfg.ProjectDir, custom, resolved); {
		case !inside:
			cfg.Logf("plansDirectory %q is outside the project root %s; using %s instead", custom, cfg.ProjectDir, dir)
		case why != "":
			cfg.Logf("plansDirectory %q lies where files decide what runs (%s); using %s instead", custom, why, dir)
		default:
			dir = resolved
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		cfg.Logf("cannot create the plans directory %s: %v", dir, err)
	}
	return permission.Canonical(dir)
}

// protectedPlansDir says why the plansDirectory setting (and its resolved
// form) must not hold plans, or "": it is checked as written and as
// resolved, so neither a link nor ".." reaches such a directory.
func protectedPlansDir(root, setting, resolved string) string {
	p := setting
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	for _, pair := range [][2]string{{filepath.Clean(root), filepath.Clean(p)}, {permission.Canonical(root), resolved}} {
		if pair[1] == "" {
			continue
		}
		if rel, err := filepath.Rel(pair[0], pair[1]); err == nil && !strings.HasPrefix(rel, "..") {
			if why := permission.DirDecidesWhatRuns(rel); why != "" {
				return why
			}
		}
	}
	return ""
}

// insideProject resolves a plansDirectory setting against the project root
// and reports whether it stays inside it once symlinks are resolved.
func insideProject(root, setting string) (bool, string) {
	p := setting
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	canonRoot := permission.Canonical(root)
	canon := permission.Canonical(p)
	rel, err := filepath.Rel(canonRoot, canon)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false, ""
	}
	return true, canon
}

// Slug names this session's plan file. It is made on first use and kept
// for the whole session (and across resume, through the transcript).
func (s *Session) Slug() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.slugLocked()
}

func (s *Session) slugLocked() string {
	if s.st.Slug != "" {
		return s.st.Slug
	}
	dir := s.plansDirLocked()
	if s.cfg.FileNaming == "session-timestamp" {
		s.st.Slug = s.id + "_" + s.cfg.Now().Format("20060102_150405")
	} else {
		s.st.Slug = uniqueSlug(dir, s.hint, s.cfg.Intn)
	}
	s.changed()
	return s.st.Slug
}

// SetSlug sets the plan file name, for a resumed or forked session.
func (s *Session) SetSlug(slug string) {
	s.mu.Lock()
	s.st.Slug = slug
	s.changed()
	s.mu.Unlock()
}

// SetTaskHint gives the latest task description, so that the plan file's
// name, when it is made (on entering plan mode), starts with a few words of
// the task at hand.
func (s *Session) SetTaskHint(task string) {
	s.mu.Lock()
	if s.st.Slug == "" {
		s.hint = task
	}
	s.mu.Unlock()
}

// PlanFile is the path of the plan file of the main conversation (agentID
// "") or of a subagent.
func (s *Session) PlanFile(agentID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.planFileLocked(agentID)
}

func (s *Session) planFileLocked(agentID string) string {
	name := s.slugLocked()
	if agentID != "" {
		name += "-agent-" + agentID
	}
	return filepath.Join(s.plansDirLocked(), name+".md")
}

// ReadPlan returns the plan and whether there is one. A missing file is
// no plan; so is a file that cannot be read, which is also logged, and
// so is anything but a regular file reached without a symbolic link (a
// named pipe put at the plan's path does not hold ponder up).
func (s *Session) ReadPlan(agentID string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readPlanLocked(agentID)
}

func (s *Session) readPlanLocked(agentID string) (string, bool) {
	if s.st.Slug == "" {
		return "", false // no name yet, so no plan yet
	}
	path := s.planFileLocked(agentID)
	data, err := atomicfile.ReadNoFollow(path, maxPlanBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		s.cfg.Logf("cannot read the plan file %s: %v", path, err)
		return "", false
	}
	return string(data), true
}

// maxPlanBytes bounds the plan file read back.
const maxPlanBytes = 16 << 20

// WritePlan replaces the plan file atomically (an edited plan coming back
// from an approval, or a plan restored on resume). The plans directory
// may be one other users can write, so no symbolic link is followed on
// the way to the plan file, nor at it: reads and writes of the plan file
// never reach another file, whatever is swapped in between.
func (s *Session) WritePlan(agentID, content string) error {
	return atomicfile.WriteNoFollow(s.PlanFile(agentID), []byte(content), 0o644)
}
