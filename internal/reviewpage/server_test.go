package reviewpage

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/ponder-agent/ponder/event"
)

// fakeAnswerer records answers; a question is open until answered once.
type fakeAnswerer struct {
	mu      sync.Mutex
	answers []event.Answer
	closed  map[string]bool
}

func (f *fakeAnswerer) CheckPlanAnswer(_ event.Question, ans event.Answer) error {
	if ans.Model == "no-such-model" {
		return errors.New("no model named no-such-model")
	}
	return nil
}

func (f *fakeAnswerer) Answer(id string, ans event.Answer) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed[id] {
		return false
	}
	f.closed[id] = true
	f.answers = append(f.answers, ans)
	return true
}

const testPlan = "# Greeting\n\n1. Create `hello.txt` saying hello.\n2. Verify with cat.\n<script>alert(1)</script>\n"

func newTestServer(t *testing.T) (*Server, *fakeAnswerer) {
	t.Helper()
	f := &fakeAnswerer{closed: map[string]bool{}}
	s, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.Observe(event.QuestionAsked{Question: event.Question{ID: "q1", Kind: event.AskPlanExit, Plan: testPlan, PlanFile: "/p/plan.md",
		Options:     []event.Option{{ID: event.OptionAcceptEdits, Label: "Yes, and accept edits"}, {ID: event.OptionManual, Label: "Yes"}, {ID: event.OptionReject, Label: "No"}},
		Models:      []string{"m1", "m2"},
		Permissions: []event.PlanPermission{{Rule: "Bash(curl:*)", Outside: true, Why: "reaches the network"}}}})
	return s, f
}

// request builds a request to s as a browser on the page would send it;
// edit changes it.
func request(s *Server, method, path, body string, edit func(r *http.Request)) *httptest.ResponseRecorder {
	u := path
	if strings.Contains(u, "?") {
		u += "&token=" + s.token
	} else {
		u += "?token=" + s.token
	}
	r := httptest.NewRequest(method, u, strings.NewReader(body))
	r.Host = s.ln.Addr().String()
	if method == http.MethodPost {
		r.Header.Set("Origin", "http://"+s.ln.Addr().String())
	}
	if edit != nil {
		edit(r)
	}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	return w
}

const approveBody = `{"id":"q1","action":"approve","option":"accept-edits","model":"m2"}`

func TestPageShowsThePlanSafely(t *testing.T) {
	s, _ := newTestServer(t)
	w := request(s, http.MethodGet, "/", "", nil)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	body := w.Body.String()
	for _, want := range []string{"<h1>Greeting</h1>", `id="line-3"`, "Bash(curl:*)", "reaches outside the project", "<code>hello.txt</code>", `<option value="m2">`, "Yes, and accept edits"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(body, "<script>alert(1)</script>") {
		t.Error("raw HTML of the plan reached the page")
	}
	if strings.Contains(body, "http://") || strings.Contains(body, "https://") {
		t.Error("the page names an external address")
	}
	if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q", csp)
	}
}

// Requests without the token, with a wrong one, from another origin or
// naming another host are refused, and nothing is answered.
func TestGuardRefuses(t *testing.T) {
	s, f := newTestServer(t)
	cases := map[string]func(r *http.Request){
		"no token": func(r *http.Request) {
			q := r.URL.Query()
			q.Del("token")
			r.URL.RawQuery = q.Encode()
		},
		"wrong token": func(r *http.Request) {
			r.URL.RawQuery = url.Values{"token": {strings.Repeat("0", len(s.token))}}.Encode()
		},
		"foreign origin":    func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") },
		"other port origin": func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:1") },
		"rebinding host":    func(r *http.Request) { r.Host = "evil.example:" + s.port() },
		"lan host":          func(r *http.Request) { r.Host = "192.168.1.20:" + s.port() },
		"cross site":        func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			for _, path := range []string{"/", "/events"} {
				if w := request(s, http.MethodGet, path, "", edit); w.Code != http.StatusForbidden {
					t.Errorf("GET %s: status %d, want 403", path, w.Code)
				}
			}
			if w := request(s, http.MethodPost, "/answer", approveBody, edit); w.Code != http.StatusForbidden {
				t.Errorf("POST: status %d, want 403", w.Code)
			}
		})
	}
	if len(f.answers) != 0 {
		t.Fatalf("a refused request answered: %+v", f.answers)
	}
}

// The first approval is given with its option and model; a second one,
// and any answer after the question closed elsewhere, is refused.
func TestOneAnswerOnly(t *testing.T) {
	s, f := newTestServer(t)
	if w := request(s, http.MethodPost, "/answer", approveBody, nil); w.Code != http.StatusOK {
		t.Fatalf("approval: %d %s", w.Code, w.Body)
	}
	if w := request(s, http.MethodPost, "/answer", approveBody, nil); w.Code != http.StatusConflict {
		t.Fatalf("second approval: %d, want 409", w.Code)
	}
	if len(f.answers) != 1 || f.answers[0].Option != event.OptionAcceptEdits || f.answers[0].Model != "m2" {
		t.Fatalf("answers %+v", f.answers)
	}
	// Another front end answered the next question first.
	s.Observe(event.QuestionAsked{Question: event.Question{ID: "q2", Kind: event.AskPlanExit, Plan: "# v2\n"}})
	s.Observe(event.QuestionClosed{ID: "q2", How: event.Answered})
	if w := request(s, http.MethodPost, "/answer", strings.Replace(approveBody, "q1", "q2", 1), nil); w.Code != http.StatusConflict {
		t.Fatalf("answer to a closed question: %d", w.Code)
	}
	if len(f.answers) != 1 {
		t.Fatalf("answers %+v", f.answers)
	}
}

// Two approvals racing each other: one wins.
func TestRacingApprovals(t *testing.T) {
	s, f := newTestServer(t)
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = request(s, http.MethodPost, "/answer", approveBody, nil).Code
		}()
	}
	wg.Wait()
	ok := 0
	for _, c := range codes {
		if c == http.StatusOK {
			ok++
		}
	}
	if ok != 1 || len(f.answers) != 1 {
		t.Fatalf("%d approvals accepted (%v), %d given", ok, codes, len(f.answers))
	}
}

func TestSendBackCarriesComments(t *testing.T) {
	s, f := newTestServer(t)
	if w := request(s, http.MethodPost, "/answer", `{"id":"q1","action":"revise"}`, nil); w.Code != http.StatusBadRequest {
		t.Fatalf("empty send-back: %d", w.Code)
	}
	if w := request(s, http.MethodPost, "/answer", `{"id":"q1","action":"approve","option":"accept-edits","model":"no-such-model"}`, nil); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "no-such-model") {
		t.Fatalf("bad model: %d %s", w.Code, w.Body)
	}
	w := request(s, http.MethodPost, "/answer", `{"id":"q1","action":"revise","feedback":"close","annotations":[{"line":3,"comment":"say bonjour"},{"line":4,"comment":"  "}]}`, nil)
	if w.Code != http.StatusOK {
		t.Fatalf("send back: %d %s", w.Code, w.Body)
	}
	a := f.answers[0]
	if a.Option != event.OptionReject || a.Feedback != "close" || len(a.Annotations) != 1 || a.Annotations[0] != (event.Annotation{Line: 3, Comment: "say bonjour"}) {
		t.Fatalf("answer %+v", a)
	}
}

func TestNamedFiles(t *testing.T) {
	got := namedFiles("Edit `internal/app/app.go` and `README.md`, run `go test`, see `https://x.y/z.html` and `internal/app/app.go`.")
	if strings.Join(got, ",") != "internal/app/app.go,README.md" {
		t.Fatalf("files %v", got)
	}
}

// An exported page stands alone: no external address, the plan's raw
// HTML left out, every line numbered, its name a JS string.
func TestExportStandsAlone(t *testing.T) {
	var b strings.Builder
	if err := Export(&b, `x";alert(1);"`, testPlan); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") || strings.Contains(page, "<script>alert(1)</script>") {
		t.Error("the exported page refers elsewhere or carries the plan's HTML")
	}
	if !strings.Contains(page, `id="line-5"`) || !strings.Contains(page, "Content-Security-Policy") {
		t.Error("the exported page lacks its lines or its policy")
	}
	if strings.Contains(page, `x";alert(1);"`) {
		t.Error("the plan's name reached the script unescaped")
	}
}
