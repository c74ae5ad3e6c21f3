// Package team is ponder's team protocol over package mailbox: what a
// member remembers about itself (its Record), the lead's book of plan
// approval requests (Requests), the rules that decide which answer a
// teammate accepts (AcceptResponse), and how messages read to a model
// (ForModel). It runs no agent; package app wires it to sessions.
//
// A team has one lead, named LeadName, and teammates with names of their
// own. A teammate that must plan first sends a plan_approval_request to
// the lead when it leaves plan mode and waits; the lead answers once,
// from whichever of its front ends or its model answers first, with a
// plan_approval_response that the teammate applies only if it comes
// from its lead and carries the ID of its outstanding request.
package team

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// LeadName is the inbox name of every team's lead.
const LeadName = "lead"

// Record is what a member keeps about itself between runs, under its
// config directory: <config>/teams/<team>/members/<name>.json. A
// teammate started again finds its session there and resumes it.
type Record struct {
	Team string `json:"team"`
	Name string `json:"name"`
	// Lead is the name of the member whose answers count (LeadName).
	Lead      string `json:"lead"`
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd,omitempty"`
	// PlanModeRequired: the teammate may not leave plan mode without the
	// lead's approval.
	PlanModeRequired bool `json:"plan_mode_required,omitempty"`
	// LeadMode is the freest mode the teammate may enter, as settled
	// when it was started (its lead's); started again without one, it
	// keeps this.
	LeadMode string `json:"lead_mode,omitempty"`
	// Tools, when not nil, are the only built-in tools the teammate has
	// (its lead's --tools, or its own), kept for when it is started
	// again without them. nil is every tool; an empty list none.
	Tools *[]string `json:"tools,omitempty"`
	// Mode is the permission mode the teammate works in now, written at
	// each change: a lead in plan mode reads it before it sends the
	// teammate anything to act on.
	Mode string `json:"mode,omitempty"`
	// State is one of event's Teammate* states.
	State string `json:"state"`
	// RequestID is the plan approval request waiting for an answer; it is
	// outstanding only while the session also has a pending approval.
	RequestID string `json:"request_id,omitempty"`
	// Held are messages (as the model reads them) that arrived while the
	// plan waited for approval; they are the input of the turn after the
	// answer. Kept here, they outlive a crash.
	Held    []string  `json:"held,omitempty"`
	Updated time.Time `json:"updated"`
}

// recordPath is where a member's record is kept.
func recordPath(configDir, team, name string) string {
	return filepath.Join(configDir, "teams", team, "members", name+".json")
}

// LoadRecord reads the record of name in team; found is false when there
// is none yet.
func LoadRecord(configDir, team, name string) (rec Record, found bool, err error) {
	if err := checkNames(team, name); err != nil {
		return Record{}, false, err
	}
	p := recordPath(configDir, team, name)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, err
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return Record{}, false, fmt.Errorf("%s: not a teammate record: %w", p, err)
	}
	if rec.Team != team || rec.Name != name {
		return Record{}, false, fmt.Errorf("%s: the record is of %s in team %s", p, rec.Name, rec.Team)
	}
	return rec, true, nil
}

// Save writes the record atomically.
func (r Record) Save(configDir string) error {
	if err := checkNames(r.Team, r.Name); err != nil {
		return err
	}
	r.Updated = time.Now().UTC()
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	p := recordPath(configDir, r.Team, r.Name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(p, append(data, '\n'), 0o600)
}

// checkNames checks a team and a member name as the mailbox does, so
// neither can name a path outside the team's directory.
func checkNames(team, name string) error {
	if err := mailbox.ValidateName("team", team); err != nil {
		return err
	}
	return mailbox.ValidateName("member", name)
}
