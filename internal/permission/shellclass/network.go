package shellclass

import (
	"fmt"
	"slices"
	"strings"
)

// This file holds the network clients: only requests that fetch and print
// are read-only.

// webURL checks a URL given to curl or wget: only http and https.
func webURL(prog string, a arg) string {
	scheme, _, ok := strings.Cut(a.prefix, "://")
	if !ok {
		if a.lit {
			return "" // no scheme: the client assumes http
		}
		return fmt.Sprintf("%q is given the URL %s, whose scheme is only known at run time", prog, a.text)
	}
	switch strings.ToLower(scheme) {
	case "http", "https":
		return ""
	}
	return fmt.Sprintf("%q is given a %s URL; only http and https are allowed", prog, scheme)
}

var curlSpec = optSpec{
	flags: "sSfLiIvkG46N#gqj0ZlnpRJ", values: "HAemuxrbwXzyYEUCoD",
	exactLong: true,
	long: map[string]optKind{
		"silent": noValue, "show-error": noValue, "fail": noValue,
		"fail-with-body": noValue, "fail-early": noValue, "location": noValue,
		"location-trusted": noValue, "include": noValue, "head": noValue,
		"verbose": noValue, "insecure": noValue, "compressed": noValue,
		"get": noValue, "ipv4": noValue, "ipv6": noValue, "no-buffer": noValue,
		"progress-bar": noValue, "globoff": noValue, "http1.0": noValue,
		"http1.1": noValue, "http2": noValue, "http2-prior-knowledge": noValue,
		"http3": noValue, "no-progress-meter": noValue, "no-keepalive": noValue,
		"raw": noValue, "tcp-nodelay": noValue, "path-as-is": noValue,
		"netrc": noValue, "netrc-optional": noValue, "basic": noValue,
		"digest": noValue, "ntlm": noValue, "anyauth": noValue,
		"negotiate": noValue, "proxytunnel": noValue, "list-only": noValue,
		"junk-session-cookies": noValue, "parallel": noValue, "help": noValue,
		"version": noValue, "manual": noValue, "retry-connrefused": noValue,
		"retry-all-errors": noValue, "styled-output": noValue,
		"no-styled-output": noValue, "ssl-reqd": noValue, "tlsv1.2": noValue,
		"tlsv1.3": noValue, "header": needsValue, "user-agent": needsValue,
		"referer": needsValue, "max-time": needsValue, "connect-timeout": needsValue,
		"user": needsValue, "proxy": needsValue, "noproxy": needsValue,
		"range": needsValue, "cookie": needsValue, "write-out": needsValue,
		"request": needsValue, "url": needsValue, "time-cond": needsValue,
		"max-redirs": needsValue, "retry": needsValue, "retry-delay": needsValue,
		"retry-max-time": needsValue, "resolve": needsValue, "connect-to": needsValue,
		"cacert": needsValue, "capath": needsValue, "cert": needsValue,
		"key": needsValue, "cert-type": needsValue, "key-type": needsValue,
		"limit-rate": needsValue, "proto": needsValue, "proto-redir": needsValue,
		"proto-default": needsValue, "oauth2-bearer": needsValue,
		"max-filesize": needsValue, "interface": needsValue,
		"dns-servers": needsValue, "proxy-user": needsValue,
		"aws-sigv4": needsValue, "expect100-timeout": needsValue,
		"keepalive-time": needsValue, "speed-limit": needsValue,
		"speed-time": needsValue, "continue-at": needsValue, "output": needsValue,
		"dump-header": needsValue,
	},
}

// curlCmd allows GET and HEAD requests printed to standard output. Any
// option that sends data, uploads, or writes a file is not on the list.
func curlCmd(_ *walker, prog string, args []arg) string {
	p, reason := curlSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	for _, o := range p.vals("o", "output", "D", "dump-header") {
		if !o.lit || !safeOutputs[o.text] && o.text != "-" {
			return fmt.Sprintf("%q writes to %s", prog, quoteArg(o))
		}
	}
	for _, m := range p.vals("X", "request") {
		if !m.lit || m.text != "GET" && m.text != "HEAD" {
			return fmt.Sprintf("%q -X %s sends a request that may change data", prog, m.text)
		}
	}
	for _, f := range p.vals("w", "write-out") {
		if !f.lit || strings.HasPrefix(f.text, "@") || strings.Contains(f.text, "output{") {
			return fmt.Sprintf("%q --write-out %s may write a file", prog, f.text)
		}
	}
	for _, u := range append(p.vals("url"), p.operands...) {
		if reason := webURL(prog, u); reason != "" {
			return reason
		}
	}
	return ""
}

var wgetSpec = optSpec{
	flags: "qSv", values: "OUTt", exactLong: true,
	long: map[string]optKind{
		"quiet": noValue, "verbose": noValue, "no-verbose": noValue,
		"server-response": noValue, "output-document": needsValue,
		"user-agent": needsValue, "timeout": needsValue, "tries": needsValue,
		"header": needsValue, "no-check-certificate": noValue,
		"max-redirect": needsValue, "help": noValue, "version": noValue,
	},
}

// wgetCmd allows wget only when it prints to standard output (-O -).
func wgetCmd(_ *walker, prog string, args []arg) string {
	args = slices.DeleteFunc(slices.Clone(args), func(a arg) bool { return a.is("-nv") })
	p, reason := wgetSpec.parse(prog, args)
	if reason != "" {
		return reason
	}
	if p.has("help", "version") {
		return ""
	}
	outs := p.vals("O", "output-document")
	if len(outs) == 0 {
		return fmt.Sprintf("%q saves files; only %q (print to standard output) is read-only", prog, "wget -O -")
	}
	for _, o := range outs {
		if !o.is("-") && !(o.lit && safeOutputs[o.text]) {
			return fmt.Sprintf("%q -O %s writes a file", prog, o.text)
		}
	}
	for _, u := range p.operands {
		if reason := webURL(prog, u); reason != "" {
			return reason
		}
	}
	return ""
}
