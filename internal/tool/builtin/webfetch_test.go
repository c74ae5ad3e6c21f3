package builtin

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

const samplePage = `<!DOCTYPE html>
<html><head><title>Retry   Guide</title><style>body{color:red}</style>
<script>alert("x")</script></head>
<body>
<nav><a href="/home">Home</a></nav>
<main>
<h1>Retries</h1>
<p>Use the <code>Retry</code> option with <a href="/docs/opts#retry">the options</a>.<br>Second line.</p>
<ul><li>first <b>bold</b></li><li>second<ul><li>nested</li></ul></li></ul>
<ol start="3"><li>three</li><li>four</li></ol>
<pre><code class="language-go">for i := 0; i &lt; 3; i++ {
	try()
}</code></pre>
<blockquote><p>Quoted text.</p></blockquote>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>a|b</td><td>1</td></tr></table>
<div hidden>secret</div>
<img src="/img.png" alt="Diagram">
<script>var x = "hidden script";</script>
</main>
<footer>Footer text</footer>
</body></html>`

func TestHTMLToMarkdown(t *testing.T) {
	base, _ := url.Parse("https://example.test/guide/")
	title, text, err := htmlToMarkdown([]byte(samplePage), base)
	if err != nil {
		t.Fatal(err)
	}
	if title != "Retry Guide" {
		t.Errorf("title %q", title)
	}
	want := strings.Join([]string{
		"# Retries",
		"",
		"Use the `Retry` option with [the options](https://example.test/docs/opts#retry).",
		"Second line.",
		"",
		"- first **bold**",
		"- second",
		"  - nested",
		"",
		"3. three",
		"4. four",
		"",
		"```go",
		"for i := 0; i < 3; i++ {",
		"\ttry()",
		"}",
		"```",
		"",
		"> Quoted text.",
		"",
		"| Name | Value |",
		"| --- | --- |",
		`| a\|b | 1 |`,
		"",
		"![Diagram](https://example.test/img.png)",
	}, "\n")
	if text != want {
		t.Errorf("got:\n%s\n\nwant:\n%s", text, want)
	}
}

func TestHTMLWithoutMain(t *testing.T) {
	_, text, err := htmlToMarkdown([]byte(`<body><div>One <span>two</span></div><p>Three <a href="javascript:go()">link</a></p></body>`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if text != "One two\n\nThree link" {
		t.Errorf("got %q", text)
	}
}

func newFetchServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(samplePage))
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"a": 1}`))
	})
	mux.HandleFunc("/untyped", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil
		w.Write([]byte("plain words here"))
	})
	mux.HandleFunc("/img.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such page", http.StatusNotFound)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("word ", 40_000)))
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := []byte(strings.Repeat("z", 1<<20))
		for range 6 {
			w.Write(chunk)
		}
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/data.json", http.StatusFound)
	})
	mux.HandleFunc("/to-localhost", func(w http.ResponseWriter, r *http.Request) {
		_, port, _ := strings.Cut(r.Host, ":")
		http.Redirect(w, r, "http://localhost:"+port+"/data.json", http.StatusFound)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://other.invalid/x", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestWebFetch(t *testing.T) {
	srv := newFetchServer(t)
	wf := NewWebFetch(srv.Client())
	env := newEnv(t)
	fetch := func(path string) tool.Result {
		return run(t, wf, env, map[string]any{"url": srv.URL + path, "prompt": "What does it say?"})
	}
	tests := []struct {
		path  string
		isErr bool
		want  []string
		not   []string
	}{
		{"/page", false, []string{"URL: " + srv.URL + "/page\n", "Prompt: What does it say?", "Title: Retry Guide", "# Retries", "[the options](" + srv.URL + "/docs/opts#retry)"},
			[]string{"alert", "hidden script", "Footer text", "secret"}},
		{"/data.json", false, []string{`{"a": 1}`, "application/json"}, nil},
		{"/untyped", false, []string{"plain words here"}, nil},
		{"/img.png", true, []string{"image/png", "not text"}, nil},
		{"/missing", true, []string{"404", "no such page"}, nil},
		{"/big", false, []string{"Content cut at 100000 characters; 100000 more were left out."}, nil},
		{"/huge", false, []string{"larger than 5 MB"}, nil},
		{"/moved", false, []string{"URL: " + srv.URL + "/data.json", "redirected from " + srv.URL + "/moved", `{"a": 1}`}, nil},
		{"/away", false, []string{"redirects to another host: http://other.invalid/x", "call WebFetch again"}, nil},
		// Every loopback name and address is one host, as in the rules.
		{"/to-localhost", false, []string{"/data.json", "redirected from " + srv.URL + "/to-localhost", `{"a": 1}`}, []string{"another host"}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			res := fetch(tc.path)
			if res.IsError != tc.isErr {
				t.Errorf("IsError = %v: %.300s", res.IsError, res.Content)
			}
			wantContains(t, res.Content, tc.want...)
			for _, n := range tc.not {
				if strings.Contains(res.Content, n) {
					t.Errorf("output has %q", n)
				}
			}
			if len(res.Content) > webFetchMaxChars+2000 {
				t.Errorf("output is %d bytes", len(res.Content))
			}
		})
	}
}

func TestWebFetchCancel(t *testing.T) {
	arrived := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
	}))
	defer srv.Close()
	call := prepare(t, NewWebFetch(srv.Client()), newEnv(t), map[string]any{"url": srv.URL, "prompt": "p"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tool.Result, 1)
	go func() { done <- call.Run(ctx) }()
	<-arrived
	cancel()
	res := <-done
	if !res.IsError || !strings.Contains(res.Content, "interrupted") {
		t.Errorf("result: %+v", res)
	}
}

func TestWebFetchPrepare(t *testing.T) {
	wf := NewWebFetch(nil)
	env := newEnv(t)
	for _, tc := range []struct {
		input map[string]any
		want  string
	}{
		{map[string]any{"url": "ftp://example.test/x", "prompt": "p"}, "http"},
		{map[string]any{"url": "https://", "prompt": "p"}, "no host"},
		{map[string]any{"url": "https://example.test"}, "prompt is required"},
		{map[string]any{"prompt": "p"}, "url is required"},
		{map[string]any{"url": "http://[::1", "prompt": "p"}, "not valid"},
	} {
		wantContains(t, prepareErr(t, wf, env, tc.input), tc.want)
	}
	a := prepare(t, wf, env, map[string]any{"url": "HTTPS://example.test/a?b=1#frag", "prompt": "p"}).Access()
	if NewWebFetch(nil).Kind() != permission.KindNetwork || a.Target != "https://example.test/a?b=1" {
		t.Errorf("Access = %+v", a)
	}
}
