package mailbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Cross-process tests: the test binary runs itself as a sender, a
// receiver, a lead or a teammate (TestHelperProcess), talking through
// the file mailbox or an embedded JetStream server, and the test kills
// receivers with SIGKILL at the worst moments.

const helperEnv = "PONDER_MAILBOX_HELPER"

// helper is one run of the test binary in a role.
type helper struct {
	cmd   *exec.Cmd
	lines chan string
	errb  *strings.Builder
}

// startHelper runs role with env (KEY=VALUE) and collects its output
// lines.
func startHelper(t *testing.T, role string, env ...string) *helper {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), append([]string{helperEnv + "=" + role}, env...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h := &helper{cmd: cmd, lines: make(chan string, 100), errb: &strings.Builder{}}
	cmd.Stderr = h.errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		close(h.lines)
	}()
	return h
}

// waitLine reads output until a line equal to want; it fails if the
// helper ends first or nothing comes for 20 s.
func (h *helper) waitLine(t *testing.T, want string) {
	t.Helper()
	var seen []string
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-h.lines:
			if !ok {
				t.Fatalf("helper ended before printing %q; printed %q; stderr: %s", want, seen, h.errb)
			}
			if l == want {
				return
			}
			seen = append(seen, l)
		case <-timeout:
			t.Fatalf("helper did not print %q within 20s; printed %q", want, seen)
		}
	}
}

// finish waits for the helper to exit 0 and returns all it printed.
func (h *helper) finish(t *testing.T) []string {
	t.Helper()
	var out []string
	for l := range h.lines {
		out = append(out, l)
	}
	if err := h.cmd.Wait(); err != nil {
		t.Fatalf("%s: %v\nstdout: %q\nstderr: %s", h.cmd.Env[len(os.Environ())], err, out, h.errb)
	}
	return out
}

func runHelper(t *testing.T, role string, env ...string) []string {
	t.Helper()
	return startHelper(t, role, env...).finish(t)
}

// TestHelperProcess is not a test: it is the body of the helper
// processes, and does nothing unless PONDER_MAILBOX_HELPER names a role.
func TestHelperProcess(t *testing.T) {
	role := os.Getenv(helperEnv)
	if role == "" {
		return
	}
	if err := helperMain(role); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(2)
	}
	os.Exit(0)
}

func helperMain(role string) error {
	env := os.Getenv
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mb, err := helperOpen(env("SETTING"), env("CONFIG"), env("TEAM"))
	if err != nil {
		return err
	}
	defer mb.Close()
	count, _ := strconv.Atoi(env("COUNT"))
	switch role {
	case "send":
		for i := range count {
			m, err := NewMessage(env("TEAM"), env("FROM"), env("TO"), TypeText, Text{Text: strconv.Itoa(i)})
			if err != nil {
				return err
			}
			m.ID = fmt.Sprintf("m%03d", i) // stable, so a rerun is a retry
			if err := mb.Send(ctx, m); err != nil {
				return err
			}
			fmt.Println("sent", m.ID)
		}
		return nil
	case "receive":
		return helperReceiveAndHang(ctx, mb, env("NAME"), env("CRASH"))
	case "handle":
		seen, err := OpenSeen(env("CONFIG"), env("TEAM"), env("NAME"))
		if err != nil {
			return err
		}
		for range count {
			m, err := Handle(ctx, mb, seen, env("NAME"), applyToFile)
			if err != nil {
				return err
			}
			fmt.Println("applied", m.ID)
		}
		return nil
	case "teammate":
		return helperTeammate(ctx, mb, env("CONFIG"), env("TEAM"))
	case "lead":
		return helperLead(ctx, mb, env("CONFIG"), env("TEAM"))
	}
	return fmt.Errorf("unknown role %q", role)
}

func helperOpen(setting, cfg, team string) (Mailbox, error) {
	if isNATSURL(setting) {
		return OpenNATS(setting, team, NATSOptions{AckWait: time.Second})
	}
	return Open(setting, cfg, team)
}

// applyToFile is the effect of applying a message: its ID appended to
// $EFFECTS and synced, so the test can count applications.
func applyToFile(_ context.Context, m Message) error {
	f, err := os.OpenFile(os.Getenv("EFFECTS"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.WriteString(m.ID + "\n"); err != nil {
		return err
	}
	return f.Sync()
}

// helperReceiveAndHang takes one message through the steps Handle
// takes, and stops for good at crashAt ("received": before applying;
// "applied": applied and recorded, not acknowledged) for the test to
// kill it.
func helperReceiveAndHang(ctx context.Context, mb Mailbox, name, crashAt string) error {
	seen, err := OpenSeen(os.Getenv("CONFIG"), mb.Team(), name)
	if err != nil {
		return err
	}
	d, err := mb.Receive(ctx, name)
	if err != nil {
		return err
	}
	id := d.Message().ID
	fmt.Println("received", id)
	if crashAt == "received" {
		select {}
	}
	if err := applyToFile(ctx, d.Message()); err != nil {
		return err
	}
	if err := seen.Add(id); err != nil {
		return err
	}
	fmt.Println("applied", id)
	select {}
}

// helperTeammate asks the lead to approve a plan and waits for the
// answer, as a teammate that must plan first does.
func helperTeammate(ctx context.Context, mb Mailbox, cfg, team string) error {
	req, err := NewPlanApprovalRequest(team, "worker", "lead", PlanApprovalRequest{PlanContent: "1. add a limiter", PlanPath: filepath.Join(cfg, "plans", "p.md")})
	if err != nil {
		return err
	}
	rid, _ := req.PlanApprovalRequest()
	if err := mb.Send(ctx, req); err != nil {
		return err
	}
	fmt.Println("asked", rid.RequestID)
	seen, err := OpenSeen(cfg, team, "worker")
	if err != nil {
		return err
	}
	_, err = Handle(ctx, mb, seen, "worker", func(_ context.Context, m Message) error {
		resp, err := m.PlanApprovalResponse()
		if err != nil {
			return err
		}
		if resp.RequestID != rid.RequestID {
			return fmt.Errorf("answer to %s, asked %s", resp.RequestID, rid.RequestID)
		}
		fmt.Printf("answer approved=%v mode=%s request=%s\n", resp.Approved, resp.Mode, resp.RequestID)
		return nil
	})
	return err
}

// helperLead answers one plan approval request.
func helperLead(ctx context.Context, mb Mailbox, cfg, team string) error {
	seen, err := OpenSeen(cfg, team, "lead")
	if err != nil {
		return err
	}
	_, err = Handle(ctx, mb, seen, "lead", func(ctx context.Context, m Message) error {
		req, err := m.PlanApprovalRequest()
		if err != nil {
			return err
		}
		fmt.Printf("request %s from %s: %s\n", req.RequestID, req.From, req.PlanContent)
		resp, err := NewPlanApprovalResponse(team, "lead", m.From, PlanApprovalResponse{RequestID: req.RequestID, Approved: true, Mode: "acceptEdits"})
		if err != nil {
			return err
		}
		return mb.Send(ctx, resp)
	})
	return err
}

// crossBackend describes where the helpers meet: the team.mailbox
// setting and, per member, a config directory.
type crossBackend struct {
	name                   string
	setting                string
	senderDir, receiverDir string
}

func crossBackends(t *testing.T) []crossBackend {
	shared := t.TempDir()
	url := startNATS(t, t.TempDir(), 0).ClientURL()
	return []crossBackend{
		{name: "files", setting: "files", senderDir: shared, receiverDir: shared},
		{name: "nats", setting: url, senderDir: t.TempDir(), receiverDir: t.TempDir()},
	}
}

// TestCrossProcessCrash kills a receiver (SIGKILL) after it received a
// message, before and after applying it, and checks that its restarted
// successor applies every message exactly once, in order.
func TestCrossProcessCrash(t *testing.T) {
	t.Parallel()
	for _, b := range crossBackends(t) {
		for _, crashAt := range []string{"received", "applied"} {
			t.Run(b.name+"/"+crashAt, func(t *testing.T) {
				t.Parallel()
				team := newTeamName()
				effects := filepath.Join(t.TempDir(), "effects")
				common := []string{"SETTING=" + b.setting, "TEAM=" + team, "EFFECTS=" + effects}
				sender := append([]string{"CONFIG=" + b.senderDir, "FROM=lead", "TO=worker", "COUNT=3"}, common...)
				receiver := append([]string{"CONFIG=" + b.receiverDir, "NAME=worker"}, common...)

				runHelper(t, "send", sender...)
				victim := startHelper(t, "receive", append(receiver, "CRASH="+crashAt)...)
				victim.waitLine(t, crashAt+" m000")
				if err := victim.cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				victim.cmd.Wait()
				if b.name == "files" {
					// The evidence of the lease the dead process held.
					leased, _ := filepath.Glob(filepath.Join(b.receiverDir, "teams", team, "inboxes", "worker", "processing", "*_m000.json"))
					if len(leased) != 1 {
						t.Fatalf("m000 is not left leased by the killed receiver: %v", leased)
					}
				}

				want := 3
				if crashAt == "applied" {
					want = 2 // m000 was applied before the kill
				}
				out := runHelper(t, "handle", append(receiver, "COUNT="+strconv.Itoa(want))...)
				data, err := os.ReadFile(effects)
				if err != nil {
					t.Fatal(err)
				}
				applied := strings.Fields(string(data))
				if !slices.Equal(applied, []string{"m000", "m001", "m002"}) {
					t.Fatalf("applied %q (restart printed %q); want each message once, in order", applied, out)
				}

				// The whole send retried afterwards stores nothing new.
				runHelper(t, "send", sender...)
				mb, err := helperOpen(b.setting, b.receiverDir, team)
				if err != nil {
					t.Fatal(err)
				}
				defer mb.Close()
				if n := pending(t, mb, "worker"); n != 0 {
					t.Fatalf("pending after everything was applied and the send retried = %d", n)
				}
			})
		}
	}
}

// TestCrossProcessPlanApproval runs a teammate and a lead as two
// processes, each with its own config directory when they meet through
// JetStream: the teammate asks, the lead approves, the teammate gets
// the answer to its request.
func TestCrossProcessPlanApproval(t *testing.T) {
	t.Parallel()
	for _, b := range crossBackends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			team := newTeamName()
			common := []string{"SETTING=" + b.setting, "TEAM=" + team}
			teammate := startHelper(t, "teammate", append(common, "CONFIG="+b.senderDir)...)
			lead := startHelper(t, "lead", append(common, "CONFIG="+b.receiverDir)...)
			tOut, lOut := teammate.finish(t), lead.finish(t)
			if len(tOut) != 2 || !strings.HasPrefix(tOut[0], "asked plan_approval-") {
				t.Fatalf("teammate printed %q", tOut)
			}
			rid := strings.TrimPrefix(tOut[0], "asked ")
			if want := "answer approved=true mode=acceptEdits request=" + rid; tOut[1] != want {
				t.Fatalf("teammate printed %q, want %q", tOut[1], want)
			}
			if want := "request " + rid + " from worker: 1. add a limiter"; len(lOut) != 1 || lOut[0] != want {
				t.Fatalf("lead printed %q, want %q", lOut, want)
			}
			// Each side recorded what it applied, in its own config dir.
			for dir, name := range map[string]string{b.senderDir: "worker", b.receiverDir: "lead"} {
				if _, err := os.Stat(filepath.Join(dir, "teams", team, "seen", name+".log")); err != nil {
					t.Errorf("no seen record for %s: %v", name, err)
				}
			}
			if b.name == "nats" {
				for _, dir := range []string{b.senderDir, b.receiverDir} {
					if _, err := os.Stat(filepath.Join(dir, "teams", team, "inboxes")); !errors.Is(err, os.ErrNotExist) {
						t.Errorf("the JetStream mailbox wrote inboxes under %s", dir)
					}
				}
			}
		})
	}
}
