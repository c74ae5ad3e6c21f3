//go:build !unix

package proctree

func (other) killGroup(int) {}

func (other) ids() (sid, pgid int) { return 0, 0 }
