package team

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// A team's answers to plan approval requests are signed. The mailbox
// takes a message from whoever can write to it (a file dropped into an
// inbox directory, a publisher on the NATS server), and From is only what
// the message says; a forged approval would let a teammate leave plan
// mode. So the lead signs each answer with HMAC-SHA256 under a key kept
// in the team's directory (KeyName, mode 0600, created once by whichever
// member comes first), and a teammate acts only on an answer whose
// signature checks with the same key.
//
// What this protects against: a process that cannot read the team's
// directory (another user's; a command ponder runs confined, which the
// kernel keeps from reading the key, as it keeps the file tools); a NATS
// peer without the key, since only signatures travel, never the key; a
// file written into an inbox by anyone who does not hold the key.
//
// What it does not: a process of the same user that runs unconfined (one
// you approved, another program) can read the key and sign what it likes,
// as it could edit your settings. Teammates on other machines need a copy
// of the key in their own config directory's team directory, made by
// hand; without it they ignore every answer, which is safe but stuck.

// KeyName is the file name of a team's key, in its directory.
const KeyName = "team.key"

// keyBytes is the key's length.
const keyBytes = 32

// KeyPath is where team's key is kept.
func KeyPath(configDir, team string) string {
	return filepath.Join(configDir, "teams", team, KeyName)
}

// LoadOrCreateKey returns team's key, creating it if there is none yet:
// written in full to a file of its own and linked into place, so that
// two members starting at once end up with one key, and none reads a key
// half written. A key that others than its owner may read is refused.
func LoadOrCreateKey(configDir, team string) ([]byte, error) {
	if err := mailbox.ValidateName("team", team); err != nil {
		return nil, err
	}
	p := KeyPath(configDir, team)
	key, err := readKey(p)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, err
	}
	raw := make([]byte, keyBytes)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".team.key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(raw) + "\n")
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, werr
	}
	// os.CreateTemp made it 0600; link fails if a key exists (O_EXCL's
	// rule, for a file complete from the start).
	if err := os.Link(tmp.Name(), p); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("creating the team key %s: %w", p, err)
	}
	return readKey(p)
}

// LoadKey returns team's key, without making one: for a member on
// another machine than its lead, whose key must be the lead's copied.
func LoadKey(configDir, team string) ([]byte, error) {
	if err := mailbox.ValidateName("team", team); err != nil {
		return nil, err
	}
	key, err := readKey(KeyPath(configDir, team))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("there is no team key at %s: copy it from the lead's config directory", KeyPath(configDir, team))
	}
	return key, err
}

// readKey reads and checks a key file.
func readKey(p string) ([]byte, error) {
	info, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("the team key %s is not a regular file", p)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("the team key %s may be read by other users (mode %04o); make it 0600", p, info.Mode().Perm())
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(key) != keyBytes {
		return nil, fmt.Errorf("%s: not a team key (%d hex digits expected)", p, 2*keyBytes)
	}
	return key, nil
}

// signature is the HMAC-SHA256 of what an answer says, in a canonical
// form: a JSON array of its fields in a fixed order.
func signature(key []byte, msg mailbox.Message, r mailbox.PlanApprovalResponse) string {
	canon, _ := json.Marshal([]any{"ponder plan approval response v1", msg.Team, string(msg.Type), msg.From, msg.To,
		r.RequestID, r.Approved, r.Mode, r.Feedback, r.Model})
	mac := hmac.New(sha256.New, key)
	mac.Write(canon)
	return hex.EncodeToString(mac.Sum(nil))
}

// NewSignedResponse builds the lead's answer to teammate to, signed with
// the team's key.
func NewSignedResponse(key []byte, team, from, to string, r mailbox.PlanApprovalResponse) (mailbox.Message, error) {
	if len(key) == 0 {
		return mailbox.Message{}, errors.New("the team has no key to sign answers with")
	}
	r.Signature = ""
	msg, err := mailbox.NewPlanApprovalResponse(team, from, to, r)
	if err != nil {
		return msg, err
	}
	r.Signature = signature(key, msg, r)
	raw, err := json.Marshal(r)
	if err != nil {
		return mailbox.Message{}, err
	}
	msg.Payload = raw
	return msg, msg.Validate()
}

// verify checks an answer's signature.
func verify(key []byte, msg mailbox.Message, r mailbox.PlanApprovalResponse) error {
	switch {
	case len(key) == 0:
		return errors.New("this teammate has no team key to check it with")
	case r.Signature == "":
		return errors.New("it is not signed")
	}
	want := signature(key, msg, r)
	if !hmac.Equal([]byte(want), []byte(r.Signature)) {
		return errors.New("its signature does not match the team's key")
	}
	return nil
}
