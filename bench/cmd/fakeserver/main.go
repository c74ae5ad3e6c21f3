// Command fakeserver serves a fakemodel script over HTTP for shell scripts
// and benchmarks.
//
//	fakeserver -script replies.json [-log requests.jsonl]
//
// It prints the server's URL (http://127.0.0.1:PORT) as one line on
// standard output and serves until it gets SIGINT or SIGTERM, or until its
// standard input, when that is a pipe, reaches end of file. Point ponder at
// it with ANTHROPIC_BASE_URL=URL or OPENAI_BASE_URL=URL/v1. On exit it
// reports the number of requests and the replies never used on standard
// error, and with -log writes one JSON line per request.
//
// Replies can inject the faults of fakemodel.Reply: an error status
// ("status"), a cut connection ("cut_after"), silence ("no_answer",
// "stall_after_headers", "stall_after") and an error inside a 200 stream
// ("stream_error", "error_after", "error_code").
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if stdinIsPipe() {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fakeserver:", err)
		os.Exit(1)
	}
}

// run serves the script named in args until ctx is done.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("fakeserver", flag.ContinueOnError)
	flags.SetOutput(stderr)
	scriptPath := flags.String("script", "", "path of the script JSON file (required)")
	logPath := flags.String("log", "", "write the request log to this file as JSON lines on exit")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *scriptPath == "" || flags.NArg() > 0 {
		flags.Usage()
		return fmt.Errorf("-script is required and no arguments are taken")
	}
	script, err := fakemodel.LoadScript(*scriptPath)
	if err != nil {
		return err
	}

	srv := fakemodel.NewServer(script)
	defer srv.Close()
	if _, err := fmt.Fprintln(stdout, srv.URL()); err != nil {
		return err
	}
	<-ctx.Done()
	srv.Close()

	reqs := srv.Requests()
	fmt.Fprintf(stderr, "fakeserver: %d requests\n", len(reqs))
	if unused := srv.Unused(); len(unused) > 0 {
		fmt.Fprintf(stderr, "fakeserver: replies never used: %s\n", strings.Join(unused, ", "))
	}
	if *logPath != "" {
		return writeLog(*logPath, reqs)
	}
	return nil
}

// stdinIsPipe reports whether standard input is a pipe, whose end of file
// means the parent wants the server gone. A terminal or /dev/null (the
// stdin of background jobs in scripts) is not watched.
func stdinIsPipe() bool {
	fi, err := os.Stdin.Stat()
	return err == nil && fi.Mode()&os.ModeNamedPipe != 0
}

// logLine is one request in the -log file.
type logLine struct {
	Time     time.Time `json:"time"`
	API      string    `json:"api"`
	Path     string    `json:"path"`
	Model    string    `json:"model"`
	Reply    string    `json:"reply"`
	Outcome  string    `json:"outcome"`
	Messages int       `json:"messages"`
	LastUser string    `json:"last_user"`
}

func writeLog(path string, reqs []fakemodel.Request) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range reqs {
		last := r.LastUser()
		text := last.Text
		for _, tr := range last.ToolResults {
			text += "\n" + tr.Content
		}
		line := logLine{Time: r.Time, API: r.API, Path: r.Path, Model: r.Model, Reply: r.Reply,
			Outcome: r.Outcome, Messages: len(r.Messages), LastUser: text}
		if err := enc.Encode(line); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
