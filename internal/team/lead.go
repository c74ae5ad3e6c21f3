package team

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// LeadMode is what a running lead publishes of itself for the members
// that join while it runs: its permission mode now. A member that joins
// reads it before its first turn and never works in a freer mode than the
// lead's limit, whether or not the lead started it. The lead writes it
// when it starts and at each change of its mode, and removes it when it
// ends; a lead that crashed leaves it behind, and the members that join
// later are held to it until a lead of the team runs again: stricter than
// needed, never freer.
//
// Before it writes the file a lead lists the members it tells by message
// (ListMembers), and a member writes its record before it reads the file:
// whichever of the two comes second sees the other.
type LeadMode struct {
	Mode    string    `json:"mode"`
	PID     int       `json:"pid,omitempty"`
	Updated time.Time `json:"updated"`
}

// leadModePath is where a team's lead publishes its mode.
func leadModePath(configDir, team string) string {
	return filepath.Join(configDir, "teams", team, "lead.json")
}

// SaveLeadMode publishes the lead's mode, atomically.
func SaveLeadMode(configDir, team, mode string) error {
	if err := mailbox.ValidateName("team", team); err != nil {
		return err
	}
	data, err := json.Marshal(LeadMode{Mode: mode, PID: os.Getpid(), Updated: time.Now().UTC()})
	if err != nil {
		return err
	}
	p := leadModePath(configDir, team)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(p, append(data, '\n'), 0o600)
}

// LoadLeadMode reads the mode the team's lead published; found is false
// when no lead has published one (or the last removed it).
func LoadLeadMode(configDir, team string) (mode string, found bool, err error) {
	if err := mailbox.ValidateName("team", team); err != nil {
		return "", false, err
	}
	p := leadModePath(configDir, team)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	var lm LeadMode
	if err := json.Unmarshal(data, &lm); err != nil {
		return "", false, fmt.Errorf("%s: not a lead's mode: %w", p, err)
	}
	return lm.Mode, true, nil
}

// ClearLeadMode removes what the lead published, when it ends; only the
// file this process wrote is removed, so a lead that ends never takes
// away the mode of another lead of the team that runs on.
func ClearLeadMode(configDir, team string) error {
	if err := mailbox.ValidateName("team", team); err != nil {
		return err
	}
	p := leadModePath(configDir, team)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var lm LeadMode
	if json.Unmarshal(data, &lm) != nil || lm.PID != os.Getpid() {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// ListMembers names the teammates of team that have a record, sorted.
func ListMembers(configDir, team string) ([]string, error) {
	if err := mailbox.ValidateName("team", team); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(configDir, "teams", team, "members"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() || name == LeadName || mailbox.ValidateName("member", name) != nil {
			continue
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out, nil
}
