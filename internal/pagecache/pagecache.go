// Package pagecache tunes how the kernel maps ponder's own executable.
//
// The binary is large (the model SDKs bring a lot of generated code), and
// on Linux every page fault on it maps up to 64 KiB of neighbouring pages
// ("fault-around"), most of which a run never uses. Those pages count as
// the process's resident memory. When the executable is already in the
// page cache, advising random access turns fault-around off so that only
// pages actually touched become resident; when it is not (the first run
// after an install), the advice is skipped, because it would also turn off
// the readahead that makes a cold start fast.
package pagecache

// Advise applies the advice where the platform supports it. It never
// fails: on any problem it leaves the defaults alone.
func Advise() { advise() }
