package planmode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/permission"
)

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []event.Event
}

func (r *recorder) emit(e event.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *recorder) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, e.Kind())
	}
	return out
}

func newSession(t *testing.T, mutate ...func(*Config)) (*Session, *recorder) {
	t.Helper()
	cfg := Config{ConfigDir: t.TempDir(), ProjectDir: t.TempDir()}
	for _, m := range mutate {
		m(&cfg)
	}
	rec := &recorder{}
	return New(cfg, "sess-1", permission.ModeDefault, rec.emit, nil), rec
}

func TestEnterRemembersModeAndPlainApprovalRestoresIt(t *testing.T) {
	s, rec := newSession(t)
	s.SetMode(permission.ModeAcceptEdits, ViaTUI)
	s.SetMode(permission.ModePlan, ViaSlash)
	if st := s.State(); st.PrePlanMode != permission.ModeAcceptEdits || st.Phase != PhaseExplore {
		t.Fatalf("state after entering = %+v", st)
	}
	os.WriteFile(s.PlanFile(""), []byte("# Plan\n"), 0o644)
	a, err := s.Approve(OptionApprove, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := s.State()
	if a.Mode != permission.ModeAcceptEdits || st.Mode != permission.ModeAcceptEdits || st.PrePlanMode != "" {
		t.Fatalf("after approve: approval %+v state %+v", a, st)
	}
	if !st.HasExitedPlanMode || !st.NeedsExitReminder {
		t.Fatalf("exit flags not set: %+v", st)
	}
	want := "mode_changed mode_changed plan_mode_entered mode_changed plan_approved"
	if got := strings.Join(rec.kinds(), " "); got != want {
		t.Fatalf("events = %s, want %s", got, want)
	}
}

func TestEachApprovalOptionSetsItsMode(t *testing.T) {
	cases := []struct {
		option, from string
		want         permission.Mode
		clear        bool
	}{
		{OptionAcceptEdits, "default", permission.ModeAcceptEdits, false},
		{OptionManual, "acceptEdits", permission.ModeDefault, false},
		{OptionBypass, "default", permission.ModeBypass, false},
		{OptionClearContext, "acceptEdits", permission.ModeAcceptEdits, true},
		{OptionApprove, "default", permission.ModeDefault, false},
		{OptionApprove, "bypassPermissions", permission.ModeBypass, false},
	}
	for _, tc := range cases {
		t.Run(tc.option+"-from-"+tc.from, func(t *testing.T) {
			s, rec := newSession(t, func(c *Config) { c.BypassAllowed = true })
			s.SetMode(permission.Mode(tc.from), ViaFlag)
			s.SetMode(permission.ModePlan, ViaTool)
			os.WriteFile(s.PlanFile(""), []byte("the plan"), 0o644)
			a, err := s.Approve(tc.option, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.Mode() != tc.want || a.Mode != tc.want || a.ClearContext != tc.clear || a.Plan != "the plan" {
				t.Fatalf("mode %s approval %+v; want %s clear=%v", s.Mode(), a, tc.want, tc.clear)
			}
			hasImplement := strings.Contains(strings.Join(rec.kinds(), " "), "plan_implement")
			if hasImplement != tc.clear {
				t.Fatalf("plan_implement emitted = %v", hasImplement)
			}
		})
	}
}

func TestBypassOptionOnlyWhenAllowed(t *testing.T) {
	s, _ := newSession(t)
	for _, o := range s.Options() {
		if o.ID == OptionBypass {
			t.Fatal("bypass offered without --dangerously-skip-permissions")
		}
	}
	s.SetMode(permission.ModePlan, ViaTool)
	if _, err := s.Approve(OptionBypass, nil); err == nil {
		t.Fatal("bypass approval must fail when not allowed")
	}
	if s.Mode() != permission.ModePlan {
		t.Fatal("a failed approval must leave plan mode on")
	}
}

func TestEditedPlanIsSavedAndRejectionKeepsPlanMode(t *testing.T) {
	s, rec := newSession(t)
	s.SetMode(permission.ModePlan, ViaTool)
	os.WriteFile(s.PlanFile(""), []byte("v1"), 0o644)
	edited := "v2 by the user"
	if err := s.Reject("more tests please", &edited, false); err != nil {
		t.Fatal(err)
	}
	if plan, _ := s.ReadPlan(""); plan != edited || s.Mode() != permission.ModePlan {
		t.Fatalf("plan %q mode %s", plan, s.Mode())
	}
	a, err := s.Approve(OptionAcceptEdits, &edited)
	if err != nil || !a.Edited || !strings.Contains(ApprovedResult(a), "edited by the user") {
		t.Fatalf("approval %+v %v", a, err)
	}
	if !strings.Contains(strings.Join(rec.kinds(), " "), "plan_rejected") {
		t.Fatal("no plan_rejected event")
	}
	if got := RejectedResult("more tests please", false); !strings.Contains(got, "more tests please") || !strings.Contains(got, "still on") {
		t.Fatalf("rejection text = %q", got)
	}
}

// schedule returns the reminder kinds of each of n human turns, with the
// given number of requests (tool round trips) per turn.
func schedule(s *Session, n, requestsPerTurn int) []string {
	var out []string
	for range n {
		s.NoteHumanTurn()
		var kinds []string
		for range requestsPerTurn {
			for _, r := range s.Reminders() {
				kind := r.Kind
				if r.Kind == KindPlanMode {
					if strings.HasPrefix(r.Text, "Plan mode is on.") {
						kind += ":full"
					} else {
						kind += ":sparse"
					}
				}
				kinds = append(kinds, kind)
			}
		}
		out = append(out, strings.Join(kinds, "+"))
	}
	return out
}

func TestReminderScheduleOverTwelveTurns(t *testing.T) {
	s, _ := newSession(t)
	s.SetMode(permission.ModePlan, ViaFlag)
	got := schedule(s, 12, 3)
	want := []string{"plan_mode:full", "", "", "", "", "plan_mode:sparse", "", "", "", "", "plan_mode:sparse", ""}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("schedule\n got %q\nwant %q", got, want)
	}

	s2, _ := newSession(t, func(c *Config) { c.ReminderTurns = 2; c.FullReminderEvery = 2 })
	s2.SetMode(permission.ModePlan, ViaFlag)
	got = schedule(s2, 6, 1)
	want = []string{"plan_mode:full", "", "plan_mode:sparse", "", "plan_mode:full", ""}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("settings schedule\n got %q\nwant %q", got, want)
	}
}

func TestExitAndReentryReminders(t *testing.T) {
	s, _ := newSession(t)
	s.SetMode(permission.ModePlan, ViaSlash)
	schedule(s, 1, 1)
	os.WriteFile(s.PlanFile(""), []byte("# old plan"), 0o644)
	if _, err := s.Approve(OptionManual, nil); err != nil {
		t.Fatal(err)
	}
	// The exit reminder comes once, on the next request.
	if got := schedule(s, 2, 1); fmt.Sprint(got) != fmt.Sprint([]string{"plan_mode_exit", ""}) {
		t.Fatalf("after exit: %q", got)
	}
	// Re-entering with the plan present: re-entry first, then the full reminder.
	s.SetMode(permission.ModePlan, ViaTUI)
	if got := schedule(s, 1, 1); got[0] != "plan_mode_reentry+plan_mode:full" {
		t.Fatalf("re-entry: %q", got)
	}
	if s.State().HasExitedPlanMode {
		t.Fatal("re-entry flag not reset")
	}
	// Leaving by Shift+Tab and coming straight back drops the exit reminder.
	s.SetMode(permission.ModeDefault, ViaTUI)
	s.SetMode(permission.ModePlan, ViaTUI)
	if got := schedule(s, 1, 1); strings.Contains(got[0], "plan_mode_exit") {
		t.Fatalf("exit reminder after returning to plan mode: %q", got)
	}
}

func TestReentryNeedsAPlanFile(t *testing.T) {
	s, _ := newSession(t)
	s.SetMode(permission.ModePlan, ViaSlash)
	s.SetMode(permission.ModeDefault, ViaTUI)
	s.SetMode(permission.ModePlan, ViaTUI)
	if got := schedule(s, 1, 1); got[0] != "plan_mode:full" {
		t.Fatalf("without a plan file: %q", got)
	}
}

func TestReminderTexts(t *testing.T) {
	s, _ := newSession(t, func(c *Config) { c.ExploreAgents = 4; c.PlanAgents = 2; c.HasTaskTool = func() bool { return true } })
	s.SetMode(permission.ModePlan, ViaFlag)
	full := s.Reminders()[0].Text
	for _, want := range []string{s.PlanFile(""), "There is no plan file yet", "must not edit", "up to 4 of them",
		"up to 2 agents", "ExitPlanMode", "AskUserQuestion", "### 1.", "### 5.", "Never ask whether the plan is good", "the files to change"} {
		if !strings.Contains(full, want) {
			t.Errorf("full reminder lacks %q:\n%s", want, full)
		}
	}
	os.WriteFile(s.PlanFile(""), []byte("x"), 0o644)
	for range 5 {
		s.NoteHumanTurn()
	}
	sparse := s.Reminders()[0].Text
	if len(sparse) > len(full)/3 || !strings.Contains(sparse, s.PlanFile("")) {
		t.Errorf("sparse reminder too long or without the path:\n%s", sparse)
	}
	var sub Tracker
	subText := s.SubagentReminders("a1", &sub)[0].Text
	if !strings.Contains(subText, s.PlanFile("a1")) || strings.Contains(subText, "### 1.") {
		t.Errorf("subagent reminder:\n%s", subText)
	}
	if len(s.SubagentReminders("a1", &sub)) != 0 {
		t.Error("subagent reminder repeated without human turns")
	}
}

func TestWorkflowVariants(t *testing.T) {
	for _, tc := range []struct {
		mutate func(*Config)
		want   []string
		not    []string
	}{
		{func(c *Config) { c.Interview = true }, []string{"skeleton", "outline of the plan", "Repeat until"}, []string{"### 1. Understand"}},
		{func(c *Config) { c.Variant = "cap" }, []string{"40 lines"}, nil},
		{func(c *Config) { c.Variant = "cut" }, []string{"No background section"}, nil},
		{func(c *Config) { c.Variant = "trim" }, []string{"Keep the plan tight"}, nil},
		{func(c *Config) { c.HasTaskTool = nil }, []string{"### 2. Design"}, []string{"Explore agents"}},
	} {
		s, _ := newSession(t, tc.mutate)
		s.SetMode(permission.ModePlan, ViaFlag)
		text := s.Reminders()[0].Text
		for _, w := range tc.want {
			if w == "skeleton" {
				w = "first outline"
			}
			if !strings.Contains(text, w) {
				t.Errorf("variant lacks %q:\n%s", w, text)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(text, n) {
				t.Errorf("variant should not contain %q", n)
			}
		}
	}
}

func TestPlanFileNamesAndDirectories(t *testing.T) {
	s, _ := newSession(t)
	p1 := s.PlanFile("")
	if p1 != s.PlanFile("") {
		t.Fatal("slug not cached")
	}
	if !strings.HasPrefix(p1, permission.Canonical(filepath.Join(s.Config().ConfigDir, "plans"))) {
		t.Fatalf("default dir: %s", p1)
	}
	parts := strings.Split(strings.TrimSuffix(filepath.Base(p1), ".md"), "-")
	if len(parts) != 3 {
		t.Fatalf("slug %q is not adjective-verb-noun", filepath.Base(p1))
	}
	if got := s.PlanFile("a7"); got != strings.TrimSuffix(p1, ".md")+"-agent-a7.md" {
		t.Fatalf("agent plan file %s", got)
	}
	other, _ := newSession(t)
	other.cfg.ConfigDir = s.cfg.ConfigDir
	if other.Slug() == s.Slug() {
		t.Fatal("two sessions share a slug")
	}
}

func TestSlugAvoidsExistingFiles(t *testing.T) {
	dir := t.TempDir()
	calls := 0
	// The first three tries name an existing file; the fourth is free.
	intn := func(n int) int {
		calls++
		if calls <= 9 {
			return 0
		}
		return 1
	}
	taken := adjectives[0] + "-" + verbs[0] + "-" + nouns[0]
	os.WriteFile(filepath.Join(dir, taken+".md"), nil, 0o644)
	if got := uniqueSlug(dir, "", intn); got == taken {
		t.Fatalf("slug %q collides", got)
	}
	// After ten tries it gives up and uses the last name.
	always := func(int) int { return 0 }
	if got := uniqueSlug(dir, "", always); got != taken {
		t.Fatalf("after ten tries: %q", got)
	}
}

func TestTaskWordsInSlug(t *testing.T) {
	s, _ := newSession(t)
	s.SetTaskHint("Please add OAuth login to the Admin panel, with tests!")
	slug := s.Slug()
	if !strings.HasPrefix(slug, "add-oauth-login-admin-") || strings.Count(slug, "-") != 5 {
		t.Fatalf("slug %q", slug)
	}
	if w := taskWords("../../etc/passwd; rm -rf /"); strings.Join(w, "-") != "etc-passwd-rm-rf" {
		t.Fatalf("taskWords = %q", w)
	}
	if w := taskWords("日本語だけ"); len(w) != 0 {
		t.Fatalf("non-ASCII words should vanish: %q", w)
	}
}

func TestSessionTimestampNaming(t *testing.T) {
	at := time.Date(2026, 11, 25, 9, 8, 7, 0, time.UTC)
	s, _ := newSession(t, func(c *Config) { c.FileNaming = "session-timestamp"; c.Now = func() time.Time { return at } })
	if got := filepath.Base(s.PlanFile("")); got != "sess-1_20261125_090807.md" {
		t.Fatalf("name %s", got)
	}
}

func TestPlansDirectorySetting(t *testing.T) {
	var logged []string
	logf := func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	proj := t.TempDir()
	inside := func(c *Config) { c.ProjectDir = proj; c.PlansDirectory = "docs/plans"; c.Logf = logf }
	s, _ := newSession(t, inside)
	if want := filepath.Join(permission.Canonical(proj), "docs", "plans"); s.PlansDir() != want {
		t.Fatalf("dir %s, want %s", s.PlansDir(), want)
	}
	for _, bad := range []string{"../outside", "/etc", ".", "link-out/plans"} {
		os.Symlink(t.TempDir(), filepath.Join(proj, "link-out"))
		logged = nil
		s, _ := newSession(t, func(c *Config) { c.ProjectDir = proj; c.PlansDirectory = bad; c.Logf = logf })
		if !strings.HasSuffix(s.PlansDir(), filepath.Join("", "plans")) || strings.HasPrefix(s.PlansDir(), permission.Canonical(proj)) {
			t.Errorf("%q: dir %s should be the default", bad, s.PlansDir())
		}
		if len(logged) != 1 || !strings.Contains(logged[0], "outside the project") {
			t.Errorf("%q: logged %q", bad, logged)
		}
	}
}

// No plans go where files decide what runs, named directly, through a
// link, or by "..": the default directory is used, the directory asked
// for is not even made, and the log says why.
func TestPlansDirectoryNotWhereFilesDecideWhatRuns(t *testing.T) {
	var logged []string
	logf := func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	proj := t.TempDir()
	os.MkdirAll(filepath.Join(proj, ".git", "hooks"), 0o755)
	os.Symlink(filepath.Join(proj, ".git"), filepath.Join(proj, "gitdir"))
	for _, bad := range []string{".git/hooks", ".ponder/plans", ".claude", ".vscode", ".github", "scripts/hooks", "gitdir/hooks", "docs/../.git", ".Git/x"} {
		logged = nil
		s, _ := newSession(t, func(c *Config) { c.ProjectDir = proj; c.PlansDirectory = bad; c.Logf = logf })
		if strings.HasPrefix(s.PlansDir(), permission.Canonical(proj)) {
			t.Errorf("%q: plans go to %s", bad, s.PlansDir())
		}
		if len(logged) != 1 || !strings.Contains(logged[0], "decide what runs") {
			t.Errorf("%q: logged %q", bad, logged)
		}
	}
	for _, made := range []string{".ponder", ".claude", ".vscode", ".github", "scripts"} {
		if _, err := os.Stat(filepath.Join(proj, made)); err == nil {
			t.Errorf("%s was made", made)
		}
	}
}

func TestReadPlanTellsNoPlanFromErrors(t *testing.T) {
	var logged []string
	s, _ := newSession(t, func(c *Config) { c.Logf = func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) } })
	if _, ok := s.ReadPlan(""); ok || len(logged) != 0 {
		t.Fatal("a missing plan is no plan and no error")
	}
	os.Mkdir(s.PlanFile(""), 0o755) // unreadable as a file
	if _, ok := s.ReadPlan(""); ok || len(logged) != 1 {
		t.Fatalf("read error: ok=%v logged=%q", ok, logged)
	}
}

func TestPhaseTracking(t *testing.T) {
	s, rec := newSession(t)
	s.Observe(permission.Access{Tool: "Task", Kind: permission.KindAgent, Target: "Plan"})
	if s.Phase() != "" {
		t.Fatal("no phases outside plan mode")
	}
	s.SetMode(permission.ModePlan, ViaTool)
	steps := []struct {
		a    permission.Access
		want Phase
	}{
		{permission.Access{Tool: "Task", Kind: permission.KindAgent, Target: "Explore"}, PhaseExplore},
		{permission.Access{Tool: "Task", Kind: permission.KindAgent, Target: "Plan"}, PhaseDesign},
		{permission.Access{Tool: "Read", Kind: permission.KindRead}, PhaseReview},
		{permission.Access{Tool: "AskUserQuestion"}, PhaseReview},
		{permission.Access{Tool: "Write", Kind: permission.KindWrite}, PhaseFinalize},
		{permission.Access{Tool: "ExitPlanMode"}, PhaseExit},
	}
	for _, st := range steps {
		s.Observe(st.a)
		if s.Phase() != st.want {
			t.Fatalf("after %s: phase %s, want %s", st.a.Tool, s.Phase(), st.want)
		}
	}
	if n := strings.Count(strings.Join(rec.kinds(), " "), "plan_phase"); n != 4 {
		t.Fatalf("%d phase events, want 4 (one per change)", n)
	}
}

func TestNextModeCycle(t *testing.T) {
	s, _ := newSession(t)
	var seen []permission.Mode
	for range 4 {
		s.SetMode(s.NextMode(), ViaTUI)
		seen = append(seen, s.Mode())
	}
	if fmt.Sprint(seen) != "[acceptEdits plan default acceptEdits]" {
		t.Fatalf("cycle %v", seen)
	}
	b, _ := newSession(t, func(c *Config) { c.BypassAllowed = true })
	seen = nil
	for range 4 {
		b.SetMode(b.NextMode(), ViaTUI)
		seen = append(seen, b.Mode())
	}
	if fmt.Sprint(seen) != "[acceptEdits plan bypassPermissions default]" {
		t.Fatalf("cycle with bypass %v", seen)
	}
}

func TestPlanReference(t *testing.T) {
	s, _ := newSession(t)
	if _, ok := s.PlanReference(); ok {
		t.Fatal("no plan, no reference")
	}
	os.WriteFile(s.PlanFile(""), []byte("## Steps\n1. do it"), 0o644)
	r, ok := s.PlanReference()
	if !ok || !strings.Contains(r.Text, "1. do it") || r.Kind != KindPlanFileReference {
		t.Fatalf("reference %+v", r)
	}
}
