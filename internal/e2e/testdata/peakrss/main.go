// Command peakrss runs a program and writes the peak resident memory of
// that program alone, in kilobytes, to the file $PEAKRSS_OUT; it exits
// as the program did.
//
// A test cannot ask the kernel for the peak memory of a process it
// starts itself: the child starts life sharing the test's memory until
// it runs the program, and that borrowed peak is what the kernel keeps.
// Started from this small program, the borrowed peak is small.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peakrss PROGRAM [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(2)
	}
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	cmd.Wait()
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if err := os.WriteFile(os.Getenv("PEAKRSS_OUT"), []byte(fmt.Sprint(ru.Maxrss)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(2)
	}
	st := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if st.Signaled() {
		signal.Reset(st.Signal())
		syscall.Kill(os.Getpid(), st.Signal())
	}
	os.Exit(st.ExitStatus())
}
