package shellclass_test

import (
	"fmt"

	"github.com/ponder-agent/ponder/internal/permission/shellclass"
)

func ExampleClassify() {
	for _, line := range []string{
		"git log --oneline | head -5",
		"find . -name '*.tmp' -exec rm {} +",
		"echo done > status.txt",
		"sh -c 'sed -i s/a/b/ notes.txt'",
	} {
		r := shellclass.Classify(line)
		if r.ReadOnly {
			fmt.Printf("%s: read-only\n", line)
		} else {
			fmt.Printf("%s: %s\n", line, r.Reason)
		}
	}
	// Output:
	// git log --oneline | head -5: read-only
	// find . -name '*.tmp' -exec rm {} +: "rm" deletes files
	// echo done > status.txt: redirects output to "status.txt"
	// sh -c 'sed -i s/a/b/ notes.txt': "sed" -i edits files in place
}

func ExampleResult_commands() {
	r := shellclass.Classify(`timeout 10 git diff --stat && ls "$HOME" | xargs wc -l`)
	for _, c := range r.Commands {
		fmt.Printf("%-28s literal=%v\n", c, c.Literal)
	}
	// Output:
	// timeout 10 git diff --stat   literal=true
	// git diff --stat              literal=true
	// ls "$HOME"                   literal=false
	// xargs wc -l                  literal=true
	// wc -l                        literal=false
}
