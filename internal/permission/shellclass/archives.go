package shellclass

import (
	"fmt"
	"strings"
)

// This file holds the archivers: only listing and testing are read-only.

// tarLetters are the tar option letters allowed in list mode; f takes the
// archive name.
const tarLetters = "tvfzjJaw"

// tarLong are the long options allowed in list mode.
var tarLong = map[string]bool{
	"list": true, "verbose": true, "gzip": true, "gunzip": true, "bzip2": true,
	"xz": true, "zstd": true, "auto-compress": true, "wildcards": true,
	"no-wildcards": true, "anchored": true, "no-anchored": true,
	"ignore-case": true, "null": true, "numeric-owner": true,
	"full-time": true, "utc": true, "force-local": true,
}

// tarCmd allows tar only to list an archive (-t).
func tarCmd(_ *walker, prog string, args []arg) string {
	var archives []arg
	list := false
	letters := func(cluster string, next func() (arg, bool)) string {
		for j := 0; j < len(cluster); j++ {
			c := cluster[j]
			if !strings.ContainsRune(tarLetters, rune(c)) {
				return fmt.Sprintf("%q option %c is not read-only", prog, c)
			}
			switch c {
			case 't':
				list = true
			case 'f':
				a, ok := next()
				if !ok {
					return fmt.Sprintf("%q -f needs an archive", prog)
				}
				archives = append(archives, a)
			}
		}
		return ""
	}
	i := 0
	// The traditional form: a first word of letters without a dash, whose
	// values follow in order.
	if len(args) > 0 && args[0].lit && args[0].text != "" && args[0].text[0] != '-' {
		i = 1
		if reason := letters(args[0].text, func() (arg, bool) {
			if i >= len(args) {
				return arg{}, false
			}
			i++
			return args[i-1], true
		}); reason != "" {
			return reason
		}
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a.is("--") {
			break
		}
		if !a.isOpt() {
			if reason := unsure(prog, a); reason != "" {
				return reason
			}
			continue
		}
		t := a.text
		if name, val, hasVal := strings.Cut(t[2:], "="); strings.HasPrefix(t, "--") {
			switch {
			case name == "file":
				if !hasVal {
					if i+1 >= len(args) {
						return fmt.Sprintf("%q --file needs an archive", prog)
					}
					i++
					archives = append(archives, args[i])
				} else {
					archives = append(archives, litArg(val))
				}
			case name == "exclude":
				if !hasVal {
					i++
				}
			case tarLong[name] && !hasVal:
				if name == "list" {
					list = true
				}
			default:
				return fmt.Sprintf("%q option %s is not read-only", prog, t)
			}
			continue
		}
		cluster := t[1:]
		if k := strings.IndexByte(cluster, 'f'); k >= 0 && k < len(cluster)-1 {
			// -fNAME: the rest of the word is the archive.
			archives = append(archives, litArg(cluster[k+1:]))
			cluster = cluster[:k]
		}
		if reason := letters(cluster, func() (arg, bool) {
			if i+1 >= len(args) {
				return arg{}, false
			}
			i++
			return args[i], true
		}); reason != "" {
			return reason
		}
	}
	if !list {
		return fmt.Sprintf("%q writes files; only listing an archive (tar -t) is read-only", prog)
	}
	for _, a := range archives {
		if !a.lit || strings.Contains(a.text, ":") {
			return fmt.Sprintf("%q archive %s may be on another machine, reached by running a remote shell", prog, a.text)
		}
	}
	return ""
}

// unzipCmd allows unzip only to list, test or print to standard output.
func unzipCmd(_ *walker, prog string, args []arg) string {
	mode := false
	for _, a := range args {
		if !a.isOpt() {
			if reason := unsure(prog, a); reason != "" {
				return reason
			}
			continue
		}
		for _, c := range a.text[1:] {
			switch {
			case strings.ContainsRune("lvtZpcz", c):
				mode = true
			case strings.ContainsRune("q12smhM", c):
			default:
				return fmt.Sprintf("%q option -%c is not read-only", prog, c)
			}
		}
	}
	if !mode {
		return fmt.Sprintf("%q extracts files; only listing (-l) or testing (-t) is read-only", prog)
	}
	return ""
}

// archivePrograms pack, unpack and compress files.
var archivePrograms = family{
	"7z":      {writes: "writes archives"},
	"bunzip2": {writes: "decompresses files in place"},
	"bzcat":   {files: files{reads: true}},
	"bzip2":   {writes: "compresses files in place"},
	"gunzip":  {writes: "decompresses files in place"},
	"gzip":    {writes: "compresses files in place"},
	"tar":     {check: tarCmd, commandOptions: []string{"--to-command", "-I", "--use-compress-program", "--rsh-command", "--checkpoint-action", "-F", "--info-script", "--new-volume-script"}, files: files{values: "fCTXbHK/fTX", reads: true}},
	"unxz":    {writes: "decompresses files in place"},
	"unzip":   {check: unzipCmd},
	"xz":      {writes: "compresses files in place"},
	"xzcat":   {files: files{reads: true}},
	"zcat":    {files: files{reads: true}},
	"zip":     {writes: "writes archives", commandOptions: []string{"-TT", "--unzip-command"}, files: files{reads: true}},
	"zipinfo": {reads: true},
	"zless":   {files: files{reads: true}},
	"zstd":    {writes: "compresses files"},
}
