package shellclass

import (
	"fmt"
	"strings"
)

// This file holds text and file tools that read, except for a few options
// or operands that write.

var sortSpec = optSpec{
	flags: "bcCdfgiMhmnRrsuVz", values: "kotST",
	long: map[string]optKind{
		"ignore-leading-blanks": noValue, "dictionary-order": noValue,
		"ignore-case": noValue, "general-numeric-sort": noValue,
		"ignore-nonprinting": noValue, "month-sort": noValue,
		"human-numeric-sort": noValue, "numeric-sort": noValue,
		"random-sort": noValue, "random-source": needsValue, "reverse": noValue,
		"sort": needsValue, "version-sort": noValue, "batch-size": needsValue,
		"check": mayValue, "compress-program": needsValue, "debug": noValue,
		"files0-from": needsValue, "key": needsValue, "merge": noValue,
		"output": needsValue, "stable": noValue, "buffer-size": needsValue,
		"field-separator": needsValue, "temporary-directory": needsValue,
		"parallel": needsValue, "unique": noValue, "zero-terminated": noValue,
		"help": noValue, "version": noValue,
	},
}

// sortCmd refuses sort -o and --compress-program.
func sortCmd(_ *walker, prog string, args []arg) string {
	p, reason := sortSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if p.has("o", "output") {
		return fmt.Sprintf("%q -o writes a file", prog)
	}
	if p.has("compress-program") {
		return fmt.Sprintf("%q --compress-program runs a program", prog)
	}
	if p.has("T", "temporary-directory") {
		return fmt.Sprintf("%q -T writes temporary files into a directory", prog)
	}
	return ""
}

var uniqSpec = optSpec{
	flags: "cdDiuz", values: "fsw",
	long: map[string]optKind{
		"count": noValue, "repeated": noValue, "all-repeated": mayValue,
		"skip-fields": needsValue, "group": mayValue, "ignore-case": noValue,
		"skip-chars": needsValue, "unique": noValue, "zero-terminated": noValue,
		"check-chars": needsValue, "help": noValue, "version": noValue,
	},
}

// uniqCmd refuses a second operand, which uniq writes to.
func uniqCmd(_ *walker, prog string, args []arg) string {
	p, reason := uniqSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if len(p.operands) > 1 || len(p.operands) == 1 && !p.operands[0].single {
		return fmt.Sprintf("%q writes to its second file operand", prog)
	}
	return ""
}

var dateSpec = optSpec{
	flags: "uR", values: "dfrs", optional: "I",
	long: map[string]optKind{
		"date": needsValue, "debug": noValue, "file": needsValue,
		"iso-8601": mayValue, "resolution": noValue, "rfc-email": noValue,
		"rfc-3339": needsValue, "reference": needsValue, "set": needsValue,
		"universal": noValue, "utc": noValue, "help": noValue, "version": noValue,
	},
}

// dateCmd refuses setting the clock.
func dateCmd(_ *walker, prog string, args []arg) string {
	p, reason := dateSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if p.has("s", "set") {
		return fmt.Sprintf("%q -s sets the system clock", prog)
	}
	for _, o := range p.operands {
		if !strings.HasPrefix(o.prefix, "+") {
			return fmt.Sprintf("%q with the operand %s sets the system clock", prog, o.text)
		}
	}
	return ""
}

var teeSpec = optSpec{
	flags: "aip",
	long: map[string]optKind{
		"append": noValue, "ignore-interrupts": noValue, "output-error": mayValue,
		"help": noValue, "version": noValue,
	},
}

// teeCmd allows tee only into harmless devices.
func teeCmd(_ *walker, prog string, args []arg) string {
	p, reason := teeSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	for _, o := range p.operands {
		if !o.lit || !safeOutputs[o.text] {
			return fmt.Sprintf("%q writes to %s", prog, quoteArg(o))
		}
	}
	return ""
}

// quoteArg quotes a literal and leaves source text as it is.
func quoteArg(a arg) string {
	if a.lit {
		return fmt.Sprintf("%q", a.text)
	}
	return a.text
}

// xxdValueOptions are xxd options that take the next word as their value
// when given on their own.
var xxdValueOptions = map[string]bool{
	"-c": true, "-cols": true, "-g": true, "-groupsize": true, "-l": true,
	"-len": true, "-s": true, "-seek": true, "-o": true, "-n": true,
	"-name": true, "-R": true,
}

// xxdCmd refuses -r and a second operand, which xxd writes to.
func xxdCmd(_ *walker, prog string, args []arg) string {
	operands := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.lit:
			if reason := unsure(prog, a); reason != "" {
				return reason
			}
			if !a.single {
				return fmt.Sprintf("%q is given %s, which could name an output file", prog, a.text)
			}
			operands++
		case a.text == "-" || !strings.HasPrefix(a.text, "-"):
			operands++
		case strings.HasPrefix(a.text, "--"):
			return fmt.Sprintf("%q option %s is not checked", prog, a.text)
		case a.text[1] == 'r':
			return fmt.Sprintf("%q -r writes binary data", prog)
		case xxdValueOptions[a.text]:
			i++
		}
	}
	if operands > 1 {
		return fmt.Sprintf("%q writes to its second file operand", prog)
	}
	return ""
}

// treeCmd refuses -o (output file) and -R (which writes 00Tree.html files).
func treeCmd(_ *walker, prog string, args []arg) string {
	for _, a := range args {
		if reason := unsure(prog, a); reason != "" {
			return reason
		}
		if strings.ContainsAny(shortCluster(a), "oR") || longPrefixOf(a.text, "output") {
			return fmt.Sprintf("%q %s writes files", prog, a.text)
		}
	}
	return ""
}

// fileCmd refuses -C, which compiles a magic file.
func fileCmd(_ *walker, prog string, args []arg) string {
	for _, a := range args {
		if reason := unsure(prog, a); reason != "" {
			return reason
		}
		if strings.ContainsRune(shortCluster(a), 'C') || longPrefixOf(a.text, "compile") {
			return fmt.Sprintf("%q -C writes a compiled magic file", prog)
		}
	}
	return ""
}

// pagerLong are the long options allowed for less.
var pagerLong = map[string]bool{
	"--raw-control-chars": true, "--RAW-CONTROL-CHARS": true,
	"--chop-long-lines": true, "--quit-if-one-screen": true, "--no-init": true,
	"--LINE-NUMBERS": true, "--line-numbers": true, "--ignore-case": true,
	"--IGNORE-CASE": true, "--squeeze-blank-lines": true, "--quiet": true,
	"--silent": true,
}

// pagerCmd allows less and more with a few display options. Their "+"
// arguments run pager commands, and some options write log files.
func pagerCmd(_ *walker, prog string, args []arg) string {
	for _, a := range args {
		if !a.lit {
			if reason := unsure(prog, a); reason != "" {
				return reason
			}
			continue
		}
		t := a.text
		switch {
		case strings.HasPrefix(t, "+"):
			if prog == "more" && numericText(t[1:]) {
				continue
			}
			return fmt.Sprintf("%q %s runs pager commands", prog, t)
		case t == "--":
			return ""
		case strings.HasPrefix(t, "--"):
			if !pagerLong[t] {
				return fmt.Sprintf("%q option %s is not checked", prog, t)
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for _, c := range t[1:] {
				if !strings.ContainsRune("NSRrFXiInsMmEeKqQwaBcCfgGJLuUVdlp", c) {
					return fmt.Sprintf("%q option -%c is not checked", prog, c)
				}
			}
		}
	}
	return ""
}

// rgCmd refuses --pre and --hostname-bin, which run programs.
func rgCmd(_ *walker, prog string, args []arg) string {
	for _, a := range args {
		if a.is("--") {
			return ""
		}
		if reason := unsure(prog, a); reason != "" {
			return reason
		}
		name, _, _ := strings.Cut(a.text, "=")
		if a.lit && (name == "--pre" || name == "--hostname-bin") {
			return fmt.Sprintf("%q %s runs a program", prog, name)
		}
	}
	return ""
}

// agCmd refuses --pager, which runs a program.
func agCmd(_ *walker, prog string, args []arg) string {
	for _, a := range args {
		if a.is("--") {
			return ""
		}
		if reason := unsure(prog, a); reason != "" {
			return reason
		}
		if a.lit && longPrefixOf(a.text, "pager") {
			return fmt.Sprintf("%q --pager runs a program", prog)
		}
	}
	return ""
}

// yqCmd refuses in-place editing and --split-exp, which writes files.
func yqCmd(_ *walker, prog string, args []arg) string {
	for _, a := range args {
		if a.is("--") {
			return ""
		}
		if reason := unsure(prog, a); reason != "" {
			return reason
		}
		if strings.ContainsAny(shortCluster(a), "is") || longPrefixOf(a.text, "inplace") ||
			longPrefixOf(a.text, "in-place") || longPrefixOf(a.text, "split-exp") {
			return fmt.Sprintf("%q %s writes files", prog, a.text)
		}
	}
	return ""
}

var hostnameSpec = optSpec{
	flags: "aAdfhiIsVy",
	long: map[string]optKind{
		"alias": noValue, "all-fqdns": noValue, "domain": noValue, "fqdn": noValue,
		"long": noValue, "help": noValue, "ip-address": noValue,
		"all-ip-addresses": noValue, "short": noValue, "version": noValue,
		"yp": noValue, "nis": noValue,
	},
}

// hostnameCmd allows hostname to print names only.
func hostnameCmd(_ *walker, prog string, args []arg) string {
	p, reason := hostnameSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if len(p.operands) > 0 {
		return fmt.Sprintf("%q with an argument sets the host name", prog)
	}
	return ""
}

// xxdEscape records the output file of xxd: its second operand.
func xxdEscape(w *walker, prog string, args []arg) {
	valued := map[string]bool{"-c": true, "-cols": true, "-g": true, "-groupsize": true, "-l": true, "-len": true,
		"-o": true, "-offset": true, "-s": true, "-seek": true, "-n": true, "-name": true}
	w.secondOperand(prog, args, func(t string) bool { return valued[t] })
}

// uniqEscape records the output file of uniq: its second operand.
func uniqEscape(w *walker, prog string, args []arg) {
	w.secondOperandEscape(prog, args, "fsw", []string{"skip-fields", "skip-chars", "check-chars", "group", "all-repeated"})
}

// textPrograms read text and write it to standard output; some have
// options or operands that write files.
var textPrograms = family{
	"ag":        {check: agCmd, commandOptions: []string{"--pager"}, files: files{values: "ABCGgm", reads: true, patternFirst: true}},
	"b2sum":     {reads: true, files: files{reads: true}},
	"base32":    {reads: true, files: files{reads: true}},
	"base64":    {reads: true, files: files{reads: true}},
	"cksum":     {reads: true, files: files{reads: true}},
	"cmp":       {reads: true, files: files{reads: true}},
	"column":    {reads: true, files: files{values: "csotRNHWdE", reads: true}},
	"comm":      {reads: true, files: files{reads: true}},
	"csplit":    {writes: "writes files"},
	"cut":       {reads: true, files: files{values: "dfcb", reads: true}},
	"date":      {check: dateCmd},
	"diff":      {reads: true, files: files{values: "UCFIxLX/X", reads: true}},
	"egrep":     {reads: true, files: files{values: "efmABCdD/f", reads: true, patternFirst: true}},
	"expand":    {reads: true, files: files{reads: true}},
	"expr":      {reads: true},
	"factor":    {reads: true},
	"fgrep":     {reads: true, files: files{values: "efmABCdD/f", reads: true, patternFirst: true}},
	"file":      {check: fileCmd, escapes: &escapeSpec{writeFlagShort: "C"}, files: files{reads: true}},
	"fmt":       {reads: true, files: files{values: "wpg", reads: true}},
	"fold":      {reads: true, files: files{values: "w", reads: true}},
	"gojq":      {reads: true},
	"grep":      {reads: true, files: files{values: "eEfmABCdD/f", reads: true, patternFirst: true}},
	"hexdump":   {reads: true, files: files{values: "enosCv/f", reads: true}},
	"join":      {reads: true, files: files{values: "12jteoa", reads: true}},
	"jq":        {reads: true, files: files{values: "fL/f", reads: true, patternFirst: true}},
	"less":      {check: pagerCmd, commandOptions: []string{"+"}, escapes: &escapeSpec{writeLong: []string{"log-file", "LOG-FILE"}, writeShort: "oO", abbrev: true}, pager: true, files: files{values: "bhjkpPtTxyz#o", reads: true}},
	"md5sum":    {reads: true, files: files{reads: true}},
	"more":      {check: pagerCmd, commandOptions: []string{"+"}, pager: true, files: files{values: "n", reads: true}},
	"nl":        {reads: true, files: files{values: "bdfhilnsvw", reads: true}},
	"od":        {reads: true, files: files{values: "AjNtwS", reads: true}},
	"paste":     {reads: true, files: files{values: "d", reads: true}},
	"pr":        {reads: true, files: files{values: "hlwoNsSeiJ", reads: true}},
	"rev":       {reads: true, files: files{reads: true}},
	"rg":        {check: rgCmd, commandOptions: []string{"--pre", "--hostname-bin"}, files: files{values: "eEfmABCgtTjM/f", reads: true, patternFirst: true}},
	"seq":       {reads: true},
	"sha1sum":   {reads: true, files: files{reads: true}},
	"sha224sum": {reads: true},
	"sha256sum": {reads: true, files: files{reads: true}},
	"sha384sum": {reads: true},
	"sha512sum": {reads: true, files: files{reads: true}},
	"shasum":    {reads: true},
	"sort":      {check: sortCmd, escapes: &escapeSpec{writeLong: []string{"output"}, runLong: []string{"compress-program"}, writeShort: "o", abbrev: true}, files: files{values: "ktSTo", reads: true}},
	"split":     {writes: "writes files"},
	"strings":   {reads: true, files: files{values: "nte", reads: true}},
	"sum":       {reads: true},
	"tac":       {reads: true, files: files{reads: true}},
	"tee":       {check: teeCmd, files: files{values: "/", writes: true}},
	"tr":        {reads: true},
	"tree":      {check: treeCmd, escapes: &escapeSpec{writeShort: "o"}},
	"tsort":     {reads: true},
	"unexpand":  {reads: true},
	"uniq":      {check: uniqCmd, moreEscapes: uniqEscape, files: files{values: "fsw", reads: true}},
	"xxd":       {check: xxdCmd, moreEscapes: xxdEscape, files: files{values: "cglosn", reads: true}},
	"yes":       {reads: true},
	"yq":        {check: yqCmd, files: files{values: "/", reads: true, patternFirst: true}},
}
