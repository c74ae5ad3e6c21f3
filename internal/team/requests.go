package team

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/ponder-agent/ponder/internal/atomicfile"
	"github.com/ponder-agent/ponder/internal/team/mailbox"
)

// Request is a plan approval request as the lead keeps it.
type Request struct {
	mailbox.PlanApprovalRequest
	// Received is when the lead got it.
	Received time.Time `json:"received"`
	// Answered is set once an answer was sent: the first answer wins.
	Answered bool `json:"answered,omitempty"`
	Approved bool `json:"approved,omitempty"`
	// By says who answered ("model", "tui", "control", …).
	By string `json:"by,omitempty"`
}

// Requests is the lead's book of plan approval requests, kept in
// <config>/teams/<team>/requests.json so that a lead started again can
// still answer what arrived before, and never answers anything twice.
// Its methods are safe for concurrent use.
type Requests struct {
	path string

	mu   sync.Mutex
	reqs map[string]*Request
}

// Errors of Claim.
var (
	// ErrUnknownRequest: no request with this ID reached the lead.
	ErrUnknownRequest = errors.New("no plan approval request has this id")
	// ErrAnswered: the request has its answer already.
	ErrAnswered = errors.New("the plan approval request was answered already")
)

// OpenRequests loads the book of team under configDir.
func OpenRequests(configDir, team string) (*Requests, error) {
	if err := mailbox.ValidateName("team", team); err != nil {
		return nil, err
	}
	r := &Requests{path: filepath.Join(configDir, "teams", team, "requests.json"), reqs: map[string]*Request{}}
	data, err := os.ReadFile(r.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return r, nil
	case err != nil:
		return nil, err
	}
	var list []*Request
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s: unreadable (%v); move it aside to start the book again", r.path, err)
	}
	for _, q := range list {
		r.reqs[q.RequestID] = q
	}
	return r, nil
}

// Add records a request that arrived. A request seen before (the same
// ID, delivered again) changes nothing; added says whether it is new.
// A request reusing another teammate's ID is refused, so one teammate
// cannot take over another's request.
func (r *Requests) Add(req mailbox.PlanApprovalRequest, from string) (added bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.From != from {
		return false, fmt.Errorf("plan approval request %s says it is from %q but was sent by %q", req.RequestID, req.From, from)
	}
	if old, ok := r.reqs[req.RequestID]; ok {
		if old.From != from {
			return false, fmt.Errorf("plan approval request %s from %q reuses the id of a request from %q", req.RequestID, from, old.From)
		}
		return false, nil
	}
	r.reqs[req.RequestID] = &Request{PlanApprovalRequest: req, Received: time.Now().UTC()}
	if err := r.save(); err != nil {
		delete(r.reqs, req.RequestID)
		return false, err
	}
	return true, nil
}

// Claim marks request id answered on behalf of by, for the teammate to;
// only the first claim of a request succeeds. The caller sends the
// answer after a successful claim (a crash in between leaves the
// teammate waiting, never answered twice; the lead can answer again with
// Reopen). to must be the teammate that asked.
func (r *Requests) Claim(id, to, by string, approved bool) (Request, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	q, ok := r.reqs[id]
	switch {
	case !ok:
		return Request{}, fmt.Errorf("%w: %q", ErrUnknownRequest, id)
	case q.From != to:
		return Request{}, fmt.Errorf("plan approval request %s is from %s, not %s", id, q.From, to)
	case q.Answered:
		verdict := "rejected"
		if q.Approved {
			verdict = "approved"
		}
		return *q, fmt.Errorf("%w (%s by %s)", ErrAnswered, verdict, q.By)
	}
	q.Answered, q.Approved, q.By = true, approved, by
	if err := r.save(); err != nil {
		q.Answered, q.Approved, q.By = false, false, ""
		return Request{}, err
	}
	return *q, nil
}

// Reopen undoes a claim whose answer could not be sent.
func (r *Requests) Reopen(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if q, ok := r.reqs[id]; ok {
		q.Answered, q.Approved, q.By = false, false, ""
		_ = r.save()
	}
}

// Get returns request id.
func (r *Requests) Get(id string) (Request, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	q, ok := r.reqs[id]
	if !ok {
		return Request{}, false
	}
	return *q, true
}

// Open lists the requests not answered yet, oldest first.
func (r *Requests) Open() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Request
	for _, q := range r.reqs {
		if !q.Answered {
			out = append(out, *q)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Received.Before(out[j].Received) })
	return out
}

// save writes the book atomically; the caller holds mu.
func (r *Requests) save() error {
	list := make([]*Request, 0, len(r.reqs))
	for _, q := range r.reqs {
		list = append(list, q)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Received.Before(list[j].Received) })
	data, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(r.path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(r.path, append(data, '\n'), 0o600)
}
