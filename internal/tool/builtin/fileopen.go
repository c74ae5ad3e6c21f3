package builtin

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ponder-agent/ponder/internal/tool"
)

// The file tools (Read, Grep, Edit) read files with ponder's own rights,
// outside the sandbox, so a file that is not what it seems must not make
// ponder hang, run out of memory or change the system by reading. Every
// file they read is opened through openForReading, which:
//
//   - never blocks in open (O_NONBLOCK), so a named pipe cannot hold it;
//   - judges the file by the descriptor it opened (fstat), not by an
//     earlier look at the path, and refuses all but regular files:
//     devices, pipes and sockets are never read;
//   - knows the file systems whose files report no true size (procfs,
//     sysfs and their kind), so callers read at most pseudoMaxBytes of
//     them whatever the size says, and refuses the files whose reading
//     takes something away or never ends (the kernel log, trace pipes).
//
// Callers bound what they read from any file, since a file's size may
// change or lie; limitedReader does that.

// pseudoMaxBytes is the most read from a file on a pseudo file system
// (/proc/PID/pagemap reports size 0 and reads on for terabytes).
const pseudoMaxBytes = 8 << 20

// fileMaxBytes is the most read from any other file by a tool that reads
// it all (Grep of a named file streams, within this).
const fileMaxBytes = 4 << 30

// openedFile is a regular file open for reading.
type openedFile struct {
	*os.File
	info fs.FileInfo
	// pseudo says the file lives on a file system whose sizes mean
	// nothing (procfs, sysfs, …).
	pseudo bool
}

// maxBytes is the most a tool reads from the file.
func (f *openedFile) maxBytes() int64 {
	if f.pseudo {
		return pseudoMaxBytes
	}
	return fileMaxBytes
}

// refusedFile is the error for a file the tools do not read.
type refusedFile struct {
	path, why string
}

func (e *refusedFile) Error() string { return e.path + " " + e.why }

// openForReading opens path as described above. Errors from the system
// (the file does not exist, no permission) come back as they are; a file
// the tools will not read is a *refusedFile.
func openForReading(path string) (*openedFile, error) {
	return openWith(path, openNonBlocking)
}

// openDecided is openForReading of the canonical path a permission
// decision judged (see decidedPath), following no symbolic link anywhere
// in it: a link put on the way after the decision makes the open fail
// rather than lead to a file nobody judged.
func openDecided(canon string) (*openedFile, error) {
	return openWith(canon, openNonBlockingNoFollow)
}

// openWith is openForReading with open as the way to open path.
func openWith(path string, open func(string) (*os.File, error)) (*openedFile, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		if info.IsDir() {
			return nil, &refusedFile{path, "is a directory, not a file"}
		}
		return nil, &refusedFile{path, fmt.Sprintf("is not a regular file (it is a %s); the file tools only read regular files", describeMode(info.Mode()))}
	}
	pseudo, why := pseudoFile(f)
	if why != "" {
		f.Close()
		return nil, &refusedFile{path, why}
	}
	return &openedFile{File: f, info: info, pseudo: pseudo}, nil
}

// limitedReader reads at most n bytes of r and then says whether there
// was more.
type limitedReader struct {
	r       io.Reader
	n       int64
	read    int64
	reached bool
}

// n0 is the limit the reader was made with.
func (l *limitedReader) n0() int64 { return l.n + l.read }

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		var one [1]byte
		if k, _ := l.r.Read(one[:]); k > 0 {
			l.reached = true
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	k, err := l.r.Read(p)
	l.n -= int64(k)
	l.read += int64(k)
	return k, err
}

// editMaxBytes is the largest file Edit changes: it holds the file, and
// the changed copy, in memory.
const editMaxBytes = 256 << 20

// readDecided reads a regular file whole, at the decided canonical path
// (openDecided), failing when it holds more than limit bytes.
func readDecided(canon string, limit int64) ([]byte, error) {
	f, err := openDecided(canon)
	if err != nil {
		return nil, err
	}
	return readAllOf(f, canon, limit)
}

// readAllOf reads the open file f whole and closes it, failing when it
// holds more than limit bytes.
func readAllOf(f *openedFile, path string, limit int64) ([]byte, error) {
	defer f.Close()
	lr := &limitedReader{r: f, n: min(limit, f.maxBytes())}
	data, err := io.ReadAll(lr)
	if err != nil {
		return nil, err
	}
	if lr.reached {
		return nil, &refusedFile{path, fmt.Sprintf("is larger than %d MB, too large to change in one piece", lr.n0()>>20)}
	}
	return data, nil
}

// ctxReader stops reading once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// untilDone runs f and returns its result, or, once ctx is done, a result
// saying the tool was interrupted, without waiting for f: a read that
// blocks in the kernel (a hung network file system, a pseudo file that
// waits for data) must not keep ponder from stopping. f must not touch
// anything the caller uses after untilDone returns.
func untilDone(ctx context.Context, name string, f func() tool.Result) tool.Result {
	if ctx.Err() != nil {
		return tool.Errorf("%s was interrupted.", name)
	}
	done := make(chan tool.Result, 1)
	go func() { done <- f() }()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		return tool.Errorf("%s was interrupted.", name)
	}
}
