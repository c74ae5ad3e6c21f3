package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// review is a running `ponder review`.
type review struct {
	url  string
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	errb bytes.Buffer
	done chan struct{}
	code int
}

// lockedWriter appends to a buffer under the review's lock.
type lockedWriter struct {
	r *review
	b *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.r.mu.Lock()
	defer l.r.mu.Unlock()
	return l.b.Write(p)
}

var reviewURL = regexp.MustCompile(`review the plan at (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+)`)

// startReview runs ponder with args (review ID, say) and waits until it
// prints the page's address.
func startReview(t *testing.T, w *world, args ...string) *review {
	t.Helper()
	r := &review{done: make(chan struct{})}
	r.cmd = exec.Command(ponderBin, args...)
	r.cmd.Dir = w.dir
	r.cmd.Env = w.env()
	r.cmd.Stdout = lockedWriter{r, &r.out}
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.done
	})
	found := make(chan string, 1)
	go func() {
		br := bufio.NewReader(stderr)
		for {
			line, err := br.ReadString('\n')
			lockedWriter{r, &r.errb}.Write([]byte(line))
			if m := reviewURL.FindStringSubmatch(line); m != nil {
				found <- m[1]
			}
			if err != nil {
				break
			}
		}
		_ = r.cmd.Wait()
		r.code = r.cmd.ProcessState.ExitCode()
		close(r.done)
	}()
	select {
	case r.url = <-found:
	case <-r.done:
		t.Fatalf("ponder review ended without serving a page (exit %d):\n%s", r.code, r.stderr())
	case <-time.After(60 * time.Second):
		t.Fatalf("ponder review printed no address:\n%s", r.stderr())
	}
	return r
}

func (r *review) stderr() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errb.String()
}

// wait waits for the review to end and returns its exit code and output.
func (r *review) wait(t *testing.T) (int, string) {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(60 * time.Second):
		t.Fatalf("ponder review did not end:\n%s", r.stderr())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.code, r.out.String()
}

// pendingPlan runs a headless planning turn that leaves thePlan pending
// and returns the session's id.
func pendingPlan(t *testing.T, w *world) string {
	t.Helper()
	o := w.mustRun(0, "", "-p", "add a greeting", "--permission-mode", "plan", "--output-format", "json")
	res := lastResult(t, o.stdout)
	if res["subtype"] != "plan_pending" {
		t.Fatalf("no pending plan: %v", res)
	}
	return fmt.Sprint(res["session_id"])
}

var questionID = regexp.MustCompile(`data-id="([^"]+)"`)

// The page of a pending plan refuses requests without the token, with a
// wrong one, from a foreign origin or naming another host; the approval
// it takes implements the plan; a second approval is refused and nothing
// is approved twice.
func TestReviewPageRefusesStrangers(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan, implement("approved your plan"), finished)
		id := pendingPlan(t, w)
		r := startReview(t, w, "review", id)
		u, _ := url.Parse(r.url)
		token := u.Query().Get("token")
		base := "http://" + u.Host
		do := func(method, path, body string, edit func(*http.Request)) (int, string) {
			req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
			if method == http.MethodPost {
				req.Header.Set("Origin", base)
			}
			if edit != nil {
				edit(req)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			data, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(data)
		}
		code, page := do(http.MethodGet, "/?token="+token, "", nil)
		m := questionID.FindStringSubmatch(page)
		if code != 200 || m == nil || m[1] == "" {
			t.Fatalf("the page: %d %s", code, page)
		}
		approve := fmt.Sprintf(`{"id":%q,"action":"approve","option":"accept-edits"}`, m[1])
		refused := map[string]struct {
			path string
			edit func(*http.Request)
		}{
			"no token":       {"/answer", nil},
			"wrong token":    {"/answer?token=" + strings.Repeat("0", len(token)), nil},
			"foreign origin": {"/answer?token=" + token, func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") }},
			"other host":     {"/answer?token=" + token, func(r *http.Request) { r.Host = "evil.example:" + u.Port() }},
		}
		for name, c := range refused {
			if code, body := do(http.MethodPost, c.path, approve, c.edit); code != http.StatusForbidden {
				t.Errorf("%s: %d %s, want 403", name, code, body)
			}
		}
		if code, body := do(http.MethodPost, "/answer?token="+token, approve, nil); code != 200 {
			t.Fatalf("approval: %d %s", code, body)
		}
		if code, _ := do(http.MethodPost, "/answer?token="+token, approve, nil); code != http.StatusConflict && code != 0 {
			t.Errorf("second approval: %d, want 409", code)
		}
		code, out := r.wait(t)
		if code != 0 || strings.TrimSpace(out) != "Implemented the plan." {
			t.Fatalf("review: exit %d, stdout %q\n%s", code, out, r.stderr())
		}
		if w.read("hello.txt") != "hello\n" {
			t.Fatalf("hello.txt = %q", w.read("hello.txt"))
		}
		// Nothing is left to approve.
		if o := w.run("", "-p", "--resume", id, "--approve-plan", "manual"); o.code != 2 {
			t.Fatalf("approval after the page's: exit %d %s", o.code, o.stderr)
		}
		w.allUsed()
	})
}

// chromium finds Debian's chromium, or skips (fails where CI requires the
// tools).
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("PONDER_CI_REQUIRE_TOOLS") == "1" {
		t.Fatal("chromium is missing (apt-get install -y chromium), and PONDER_CI_REQUIRE_TOOLS=1 requires it")
	}
	t.Skip("chromium is missing (apt-get install -y chromium)")
	return ""
}

// browser starts a headless chromium with a fresh profile.
func browser(t *testing.T, bin string) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
	}
	// The profile directory is removed here rather than by t.TempDir:
	// chromium's helper processes may still write to it for a moment
	// after the browser is gone, which would fail the test in cleanup.
	profile, err := os.MkdirTemp("", "ponder-e2e-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts = append(opts, chromedp.UserDataDir(profile))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTime()
		cancel()
		cancelAlloc() // kills the browser and waits for it
		for range 5 {
			if os.RemoveAll(profile) == nil {
				break
			}
		}
	})
	return ctx
}

// In a real browser: open the page of a pending headless plan, comment on
// line 3, send the plan back; the model's next request carries the comment
// at its line, and the page follows the session to its end.
func TestReviewPageInBrowser(t *testing.T) {
	bin := chromium(t)
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan,
			fakemodel.Reply{Name: "revise", When: fakemodel.Match{ToolResult: "Comment: say bonjour too"}, Text: "I will revise the plan."})
		id := pendingPlan(t, w)
		r := startReview(t, w, "review", id)
		ctx := browser(t, bin)
		var status, line3 string
		start := time.Now()
		step := func(name string) chromedp.Action {
			return chromedp.ActionFunc(func(context.Context) error {
				t.Logf("%s after %v", name, time.Since(start).Round(time.Millisecond))
				return nil
			})
		}
		err := chromedp.Run(ctx,
			step("browser up"),
			chromedp.Navigate(r.url),
			step("navigated"),
			chromedp.WaitVisible(`#line-3`, chromedp.ByQuery),
			chromedp.Text(`#line-3 td.t`, &line3, chromedp.ByQuery),
			chromedp.Click(`#line-3 td.n`, chromedp.ByQuery),
			chromedp.WaitVisible(`#comment-3`, chromedp.ByQuery),
			chromedp.SendKeys(`#comment-3`, "say bonjour too", chromedp.ByQuery),
			step("commented"),
			chromedp.Click(`#send-back`, chromedp.ByQuery),
			step("sent"),
			chromedp.WaitVisible(`#status`, chromedp.ByQuery),
			chromedp.Poll(`document.getElementById("status") && /Sent back/.test(document.getElementById("status").textContent)`, nil),
			chromedp.Text(`#status`, &status, chromedp.ByQuery),
		)
		if err != nil {
			t.Fatalf("browser: %v\n%s", err, r.stderr())
		}
		t.Logf("page opened, commented and answered in %v", time.Since(start).Round(time.Millisecond))
		if line3 != "1. Create hello.txt saying hello." {
			t.Errorf("line 3 on the page is %q", line3)
		}
		code, out := r.wait(t)
		if code != 0 || strings.TrimSpace(out) != "I will revise the plan." {
			t.Fatalf("review: exit %d, stdout %q, page status %q\n%s", code, out, status, r.stderr())
		}
		reqs := w.srv.Requests()
		back := toolResults(reqs[len(reqs)-1])
		if len(back) != 1 || !strings.Contains(back[0].Content, "Line 3:") || !strings.Contains(back[0].Content, "Comment: say bonjour too") {
			t.Fatalf("the comment did not reach the model at its line: %+v", back)
		}
		w.allUsed()
	})
}

// A headless run with --review-page that leaves a plan pending serves its
// page; approving there with accept-edits and another model implements
// the plan with that model, in the same command.
func TestReviewPageFlagOnHeadlessRun(t *testing.T) {
	forAPIs(t, func(t *testing.T, api string) {
		w := newWorld(t, api, writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan,
			fakemodel.Reply{Name: "implement", When: fakemodel.Match{Model: "impl-model", ToolResult: "impl-model to implement"},
				ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}}}},
			fakemodel.Reply{Name: "done", When: fakemodel.Match{Model: "impl-model", ToolResult: "hello.txt ("}, Text: "Implemented."})
		r := startReview(t, w, "-p", "add a greeting", "--permission-mode", "plan", "--review-page")
		u, _ := url.Parse(r.url)
		resp, err := http.Get(r.url)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		m := questionID.FindStringSubmatch(string(page))
		if m == nil || !strings.Contains(string(page), "Create hello.txt saying hello.") {
			t.Fatalf("the page: %s", page)
		}
		req, _ := http.NewRequest(http.MethodPost, "http://"+u.Host+"/answer", strings.NewReader(fmt.Sprintf(`{"id":%q,"action":"approve","option":"accept-edits","model":"impl-model"}`, m[1])))
		req.Header.Set("X-Review-Token", u.Query().Get("token"))
		req.Header.Set("Origin", "http://"+u.Host)
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("approval: %d %s", resp.StatusCode, body)
		}
		code, out := r.wait(t)
		if code != 0 || !strings.Contains(out, "Implemented.") {
			t.Fatalf("exit %d, stdout %q\n%s", code, out, r.stderr())
		}
		if w.read("hello.txt") != "hello\n" {
			t.Fatalf("hello.txt = %q", w.read("hello.txt"))
		}
		w.allUsed()
	})
}

// longPlan is a plan of n lines with headings, lists and code.
func longPlan(n int) string {
	var b strings.Builder
	b.WriteString("# A long plan\n")
	for i := 2; i <= n; i++ {
		switch {
		case i%25 == 0:
			fmt.Fprintf(&b, "## Part %d\n", i/25)
		case i%10 == 0:
			fmt.Fprintf(&b, "    go test ./internal/part%d/...\n", i)
		default:
			fmt.Fprintf(&b, "- Step %d: change `internal/part%d/file.go` and keep the tests passing.\n", i, i)
		}
	}
	return b.String()
}

// The page of a 300-line plan paints quickly in a real browser (measured
// by the browser's first-contentful-paint, logged). With PONDER_SCREENSHOTS set,
// the page is saved there as review-page.png.
func TestReviewPageFirstPaint(t *testing.T) {
	bin := chromium(t)
	plan := longPlan(300)
	w := newWorld(t, "openai", writePlanText("plan", plan, fakemodel.Match{LastUser: "add a greeting"}),
		fakemodel.Reply{Name: "exit", When: fakemodel.Match{ToolResult: "Created"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode"}}})
	id := pendingPlan(t, w)
	r := startReview(t, w, "review", id)
	ctx := browser(t, bin)
	var fcp float64
	var timing map[string]float64
	var lines int
	// The first load starts the browser's own machinery too; the
	// measured load is the page's second, as a reader switching back to
	// it would see.
	err := chromedp.Run(ctx,
		chromedp.Navigate(r.url),
		chromedp.WaitVisible(`#line-300`, chromedp.ByQuery),
		chromedp.Navigate(r.url),
		chromedp.WaitVisible(`#line-300`, chromedp.ByQuery),
		chromedp.Poll(`(performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime || 0`, &fcp),
		chromedp.Evaluate(`(function(){var n=performance.getEntriesByType("navigation")[0];return {responseStart:n.responseStart,responseEnd:n.responseEnd,domInteractive:n.domInteractive}})()`, &timing),
		chromedp.Evaluate(`document.querySelectorAll("tr[data-line]").length`, &lines),
	)
	if err != nil {
		t.Fatalf("browser: %v\n%s", err, r.stderr())
	}
	t.Logf("first contentful paint of a 300-line plan: %.0f ms (response %.0f–%.0f ms, DOM interactive %.0f ms)", fcp, timing["responseStart"], timing["responseEnd"], timing["domInteractive"])
	if lines != 300 {
		t.Errorf("%d numbered lines, want 300", lines)
	}
	// The target is 200 ms; the bound checked is wider, because the
	// shared test machines run many browsers and builds at once (the
	// figure is logged above).
	if fcp <= 0 || fcp > 2000 {
		t.Errorf("first contentful paint %.0f ms, want well under 2 s", fcp)
	}
	if dir := os.Getenv("PONDER_SCREENSHOTS"); dir != "" {
		var png []byte
		if err := chromedp.Run(ctx, chromedp.EmulateViewport(1400, 900), chromedp.Click(`#line-3 td.n`, chromedp.ByQuery),
			chromedp.SendKeys(`#comment-3`, "Split this step in two.", chromedp.ByQuery), chromedp.CaptureScreenshot(&png)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir+"/review-page.png", png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A plan exported as a page is read and commented on in a browser from
// the file alone; the comments it saves go back with --plan-feedback and
// reach the model at their line.
func TestPlansExportHTMLRoundTrip(t *testing.T) {
	bin := chromium(t)
	w := newWorld(t, "anthropic", writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan,
		fakemodel.Reply{Name: "revise", When: fakemodel.Match{ToolResult: "Comment: say bonjour too"}, Text: "I will revise the plan."})
	id := pendingPlan(t, w)
	page := filepath.Join(t.TempDir(), "plan.html")
	w.mustRun(0, "", "plans", "export", "--html", page)
	data, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(data), "Create hello.txt saying hello.") {
		t.Fatalf("exported page: %v %q", err, data)
	}
	downloads := t.TempDir()
	ctx := browser(t, bin)
	done := make(chan string, 1)
	listen := func(ev any) {
		if p, ok := ev.(*cdpbrowser.EventDownloadProgress); ok && p.State == cdpbrowser.DownloadProgressStateCompleted {
			select {
			case done <- p.FilePath:
			default:
			}
		}
	}
	chromedp.ListenBrowser(ctx, listen)
	chromedp.ListenTarget(ctx, listen)
	err = chromedp.Run(ctx,
		cdpbrowser.SetDownloadBehavior(cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName).WithDownloadPath(downloads).WithEventsEnabled(true),
		chromedp.Navigate("file://"+page),
		chromedp.WaitVisible(`#line-3`, chromedp.ByQuery),
		chromedp.Click(`#line-3 td.n`, chromedp.ByQuery),
		chromedp.SendKeys(`#comment-3`, "say bonjour too", chromedp.ByQuery),
		chromedp.Click(`#save`, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}

	var saved string
	select {
	case saved = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the page saved no comments file")
	}
	w.mustRun(0, "", "-p", "--resume", id, "--plan-feedback", saved)
	reqs := w.srv.Requests()
	back := toolResults(reqs[len(reqs)-1])
	if len(back) != 1 || !strings.Contains(back[0].Content, "Line 3:") || !strings.Contains(back[0].Content, "Comment: say bonjour too") {
		t.Fatalf("the saved comment did not reach the model at its line: %+v", back)
	}
	w.allUsed()
}

// The whole review in a browser: comment on line 3 and send back; the
// model revises the plan in the same turn, and the open page follows with
// the new line marked; approving there with accept-edits and another model
// runs the implementation on that model.
func TestReviewPageFollowsRevisionThenApproves(t *testing.T) {
	bin := chromium(t)
	v2 := thePlan + "3. Say bonjour too.\n"
	w := newWorld(t, "openai", writePlan(fakemodel.Match{LastUser: "add a greeting"}), exitPlan,
		// A new process: the model reads its plan before rewriting it.
		fakemodel.Reply{Name: "read plan", When: fakemodel.Match{ToolResult: "Comment: say bonjour too"}, ToolCalls: []fakemodel.ToolCall{{Name: "Read",
			InputFunc: func(r *fakemodel.Request) any { return map[string]any{"file_path": planPath(r)} }}}},
		writePlanText("plan v2", v2, fakemodel.Match{ToolResult: "Verify with cat hello.txt"}),
		fakemodel.Reply{Name: "exit v2", When: fakemodel.Match{ToolResult: "Updated"}, ToolCalls: []fakemodel.ToolCall{{Name: "ExitPlanMode"}}},
		fakemodel.Reply{Name: "implement", When: fakemodel.Match{Model: "impl-model", ToolResult: "impl-model to implement"},
			ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file_path": "hello.txt", "content": "hello\nbonjour\n"}}}},
		fakemodel.Reply{Name: "done", When: fakemodel.Match{Model: "impl-model", ToolResult: "hello.txt ("}, Text: "Implemented."})
	id := pendingPlan(t, w)
	r := startReview(t, w, "review", id)
	ctx := browser(t, bin)
	var status string
	err := chromedp.Run(ctx,
		chromedp.Navigate(r.url),
		chromedp.WaitVisible(`#line-3`, chromedp.ByQuery),
		chromedp.Click(`#line-3 td.n`, chromedp.ByQuery),
		chromedp.SendKeys(`#comment-3`, "say bonjour too", chromedp.ByQuery),
		chromedp.Click(`#send-back`, chromedp.ByQuery),
		// The revised plan replaces the page, its new line marked.
		chromedp.WaitVisible(`tr.changed`, chromedp.ByQuery),
		chromedp.SetValue(`#model`, "impl-model", chromedp.ByQuery),
		chromedp.SetValue(`#option`, "accept-edits", chromedp.ByQuery),
		chromedp.Click(`#approve`, chromedp.ByQuery),
		chromedp.Poll(`/Approved/.test(document.getElementById("status").textContent)`, nil),
		chromedp.Text(`#status`, &status, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("browser: %v\n%s", err, r.stderr())
	}
	code, out := r.wait(t)
	if code != 0 || strings.TrimSpace(out) != "Implemented." {
		t.Fatalf("review: exit %d, stdout %q, page %q\n%s", code, out, status, r.stderr())
	}
	if w.read("hello.txt") != "hello\nbonjour\n" {
		t.Fatalf("hello.txt = %q", w.read("hello.txt"))
	}
	w.allUsed()
}
