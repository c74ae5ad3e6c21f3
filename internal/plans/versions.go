package plans

import (
	"fmt"
	"sort"
	"time"

	"github.com/ponder-agent/ponder/internal/session"
	"github.com/ponder-agent/ponder/internal/textdiff"
)

// Version is one revision of a plan, as a transcript recorded it.
type Version struct {
	// N numbers the versions from 1, oldest first.
	N       int
	Time    time.Time
	Cause   string
	Session string
	Content string
}

// Versions lists the revisions of the plan named slug that the sessions
// under configDir recorded, oldest first. A snapshot that repeats the
// version before it (an approval of the plan as the model wrote it) is
// not a version of its own: its cause is added to that version's.
func Versions(configDir, slug string) ([]Version, error) {
	list, err := session.AllSessions(configDir)
	if err != nil {
		return nil, err
	}
	var all []Version
	for _, s := range list {
		tr, err := session.Load(s.Path)
		if err != nil {
			continue
		}
		for _, e := range tr.Entries {
			if e.Type != session.TypePlanSnapshot || e.Plan == nil || e.Plan.Slug != slug {
				continue
			}
			cause := e.Plan.Cause
			if cause == "" {
				cause = session.CauseModel
				if e.Plan.Approved {
					cause = session.CauseApproved
				}
			}
			all = append(all, Version{Time: e.Time, Cause: cause, Session: s.ID, Content: e.Plan.Content})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Time.Before(all[j].Time) })
	var out []Version
	for _, v := range all {
		if n := len(out); n > 0 && out[n-1].Content == v.Content {
			if out[n-1].Cause != v.Cause {
				out[n-1].Cause += ", then " + v.Cause
			}
			continue
		}
		v.N = len(out) + 1
		out = append(out, v)
	}
	return out, nil
}

// Diff is the unified diff between versions a and b of a list (numbers
// from 1); a and b of 0 pick the last two.
func Diff(vs []Version, slug string, a, b int) (string, error) {
	if a == 0 && b == 0 {
		a, b = len(vs)-1, len(vs)
	}
	if len(vs) < 2 && a == len(vs)-1 {
		return "", fmt.Errorf("plan %s has %d version(s): nothing to compare", slug, len(vs))
	}
	for _, n := range []int{a, b} {
		if n < 1 || n > len(vs) {
			return "", fmt.Errorf("plan %s has no version %d (it has 1 to %d)", slug, n, len(vs))
		}
	}
	va, vb := vs[a-1], vs[b-1]
	return textdiff.Unified(fmt.Sprintf("%s v%d (%s)", slug, a, va.Cause), fmt.Sprintf("%s v%d (%s)", slug, b, vb.Cause), va.Content, vb.Content, 3), nil
}
