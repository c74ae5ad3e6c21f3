package atomicfile

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ponder-agent/ponder/internal/config"
)

// A write replaced by rename needs a temporary file beside its target. A
// process killed between creating it and the rename leaves it behind, so
// the next write into the same directory removes such leftovers; but only
// files ponder made, whatever a repository names its own files.
//
// A temporary file is named
//
//	.<target>.ponder-<pid>-<nonce>-<tag>.tmp
//
// where tag authenticates pid and nonce with a key kept in ponder's
// config directory ($PONDER_CONFIG_DIR, or ~/.ponder), with the rest of
// its state. A repository cannot make a name whose tag checks out
// without that key, so no file of its own is ever taken for a leftover. A
// leftover is removed only when, in addition, it is a regular file of the
// user's and the process that made it is gone (or the file is a day old,
// older than any write takes).

const (
	tempMarker = ".ponder-"
	tempSuffix = ".tmp"
	// maxTempBase bounds the target's name inside a temporary name, so
	// that the whole stays within the 255 bytes a file name may have.
	maxTempBase = 100
	// staleAge is when a leftover counts as abandoned even if its pid is
	// in use (by another process by now).
	staleAge = 24 * time.Hour
)

// temps makes and recognises temporary names with one key.
type temps struct {
	key []byte // nil: names carry no tag, and nothing is ever cleaned up
	// journal notes where temporary files are made, for Sweep; nil
	// notes nothing.
	journal *journal
}

// defaultTemps loads (or makes) the key once per process.
var defaultTemps = sync.OnceValue(func() *temps {
	dir, err := config.DefaultDir(os.Getenv)
	if err != nil {
		return &temps{}
	}
	return &temps{key: loadKey(dir), journal: defaultJournal()}
})

// tempsDir is where processes note the directories of their temporary
// files, or "" when there is no config directory.
func tempsDir() string {
	dir, err := config.DefaultDir(os.Getenv)
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "temps")
}

// loadKey reads the key in dir, making it first if there is none. Two
// processes making it at once agree on one: the key is linked into place,
// which only one of them can do. It returns nil when there is no usable
// key.
func loadKey(dir string) []byte {
	path := filepath.Join(dir, "tempname.key")
	if key, err := os.ReadFile(path); err == nil && len(key) == 32 {
		return key
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil
	}
	f, err := os.CreateTemp(dir, ".tempname.key.*")
	if err != nil {
		return nil
	}
	_, werr := f.Write(key)
	cerr := f.Close()
	if werr == nil && cerr == nil {
		_ = os.Link(f.Name(), path) // fails if another process was first
	}
	os.Remove(f.Name())
	if got, err := os.ReadFile(path); err == nil && len(got) == 32 {
		return got
	}
	return nil
}

// tag authenticates pid and nonce.
func (t *temps) tag(pid int, nonce string) string {
	m := hmac.New(sha256.New, t.key)
	fmt.Fprintf(m, "%d-%s", pid, nonce)
	return hex.EncodeToString(m.Sum(nil)[:8])
}

// name returns a fresh temporary name for target, for process pid.
func (t *temps) name(target string, pid int) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	nonce := hex.EncodeToString(b[:])
	base := filepath.Base(target)
	if len(base) > maxTempBase {
		cut := maxTempBase
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = base[:cut]
	}
	name := "." + base + tempMarker + strconv.Itoa(pid) + "-" + nonce
	if t.key != nil {
		name += "-" + t.tag(pid, nonce)
	}
	return name + tempSuffix, nil
}

// owner returns the pid a temporary name was made for, and whether the
// name is one this key made.
func (t *temps) owner(name string) (int, bool) {
	if t.key == nil || !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, tempSuffix) {
		return 0, false
	}
	i := strings.LastIndex(name, tempMarker)
	if i < 0 {
		return 0, false
	}
	parts := strings.Split(strings.TrimSuffix(name[i+len(tempMarker):], tempSuffix), "-")
	if len(parts) != 3 {
		return 0, false
	}
	pid, err := strconv.Atoi(parts[0])
	if err != nil || pid <= 0 || strconv.Itoa(pid) != parts[0] {
		return 0, false
	}
	want := t.tag(pid, parts[1])
	if !hmac.Equal([]byte(parts[2]), []byte(want)) {
		return 0, false
	}
	return pid, true
}

// create makes a new temporary file for target in dir, after removing
// leftovers of earlier processes there.
func (t *temps) create(dir, target string) (*os.File, error) {
	t.clean(dir)
	t.journal.note(dir)
	for range 10 {
		name, err := t.name(target, os.Getpid())
		if err != nil {
			return nil, err
		}
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("cannot find a free temporary name in %s", dir)
}

// clean removes the temporary files in dir that processes now gone left
// behind, and returns how many. It removes nothing it cannot prove to be
// such a file.
func (t *temps) clean(dir string) (removed int) {
	if t.key == nil {
		return 0
	}
	d, err := os.Open(dir)
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		pid, ok := t.owner(name)
		if !ok || pid == os.Getpid() {
			continue
		}
		path := filepath.Join(dir, name)
		info, err := os.Lstat(path)
		if err != nil || !info.Mode().IsRegular() || !ownedByMe(info) {
			continue
		}
		if processAlive(pid) && time.Since(info.ModTime()) < staleAge {
			continue
		}
		if os.Remove(path) == nil {
			removed++
		}
	}
	return removed
}

// CreateTemp makes a temporary file in dir for a file named target that
// will be linked or renamed into place, with a name that marks it as
// ponder's; leftovers of processes killed before their rename are
// removed first. The caller removes the file if it is not moved.
func CreateTemp(dir, target string) (*os.File, error) {
	return defaultTemps().create(dir, target)
}
