package mailbox

import "fmt"

// strayName returns the first entry of an inbox directory that is not a
// message as the mailbox names them (<key>_<id>.json, a regular file),
// nor the mailbox's own (its lock, a message being written, its
// subdirectories), and why; "" when there is none. Such a file was put
// there by hand or by another program: it is set aside and reported
// like a message that cannot be read, never silently passed over.
func (m *fileMailbox) strayName(dir string) (name, why string, err error) {
	entries, err := m.readDir(dir)
	if err != nil {
		return "", "", err
	}
	for _, e := range entries {
		n := e.Name()
		switch {
		case n == lockFile || len(n) > len(tmpPrefix) && n[:len(tmpPrefix)] == tmpPrefix:
			continue
		case e.IsDir() && (n == dirProcessing || n == dirDone || n == dirRejected):
			continue
		}
		if _, _, ok := parseName(n); !ok {
			return n, fmt.Sprintf("its name does not follow the mailbox's naming (<%d-digit key>_<id>%s); send messages with ponder, or write them as the team documentation says", keyDigits, msgSuffix), nil
		}
		if !e.Type().IsRegular() {
			return n, "it is not a regular file", nil
		}
	}
	return "", "", nil
}
