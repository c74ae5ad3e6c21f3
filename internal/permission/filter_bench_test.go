package permission

import (
	"fmt"
	"io/fs"
	"testing"
)

func BenchmarkReadFilterCheck(b *testing.B) {
	root := "/work/proj"
	e, err := NewEngine(Rules{
		Deny: []string{"Read(.env)", "Read(.env.*)", "Read(*.pem)", "Read(~/.ssh/**)", "Read(//etc/shadow)", "Read(/secrets/**)"},
		Ask:  []string{"Read(pkg07/sub03/**)", "Read(**/*.key)"},
	}, root, "/home/u")
	if err != nil {
		b.Fatal(err)
	}
	f := e.ReadFilter(Context{Mode: ModeDefault}, "Grep", root)
	paths := make([]string, 1000)
	for i := range paths {
		paths[i] = fmt.Sprintf("%s/pkg%02d/sub%02d/file%d.go", root, i%50, i%20, i)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		f.Check(paths[i%len(paths)], 0)
	}
}

var _ = fs.ModeDir
