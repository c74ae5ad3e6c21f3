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

// This part finds the addresses network clients are given, whatever the
// verdict on the command, so that rules about web fetches apply to them.

// noteFetches records the network requests of one command.
func (w *walker) noteFetches(p *program, prog string, args []arg) {
	n := len(w.fetches)
	if p.fetch != nil {
		p.fetch(w, prog, args)
	}
	if p.elsewhere == nil {
		return
	}
	if why := p.elsewhere(prog, args); why != "" {
		w.unknownAddresses(n, why)
	}
}

// curlFetch records the addresses curl is given, and its proxy.
func curlFetch(w *walker, prog string, args []arg) {
	w.fetchWith(prog, args, curlSpec, func(p parsedArgs) []arg {
		return append(p.vals("url", "x", "proxy"), p.operands...)
	}, !hasGlobOff(args))
}

// wgetFetch records the addresses wget is given.
func wgetFetch(w *walker, prog string, args []arg) {
	args = slices.DeleteFunc(slices.Clone(args), func(a arg) bool { return a.is("-nv") })
	w.fetchWith(prog, args, wgetSpec, func(p parsedArgs) []arg { return p.operands }, false)
}

// urlFetch records the URLs a client is given as words with a scheme;
// without one, or with a word only known at run time, the address is
// unknown.
func urlFetch(w *walker, prog string, args []arg) {
	found := false
	for _, a := range args {
		if a.lit && strings.Contains(a.text, "://") {
			w.fetches = append(w.fetches, Fetch{Program: prog, URL: a.text})
			found = true
		} else if !a.lit {
			found = false
			break
		}
	}
	if !found {
		w.fetches = append(w.fetches, Fetch{Program: prog})
	}
}

// hasGlobOff reports whether curl is told not to expand {a,b} and [1-3] in
// URLs.
func hasGlobOff(args []arg) bool {
	for _, a := range args {
		if a.is("--globoff") || strings.ContainsRune(shortCluster(a), 'g') && !strings.HasPrefix(a.text, "--") {
			return true
		}
	}
	return false
}

// fetchWith parses a client's options with spec and records the addresses
// targets returns. When the options cannot be understood, the client may
// reach anything, which is recorded as an unknown address.
func (w *walker) fetchWith(prog string, args []arg, spec optSpec, targets func(parsedArgs) []arg, globs bool) {
	p, reason := spec.parse(prog, args)
	if reason != "" {
		w.fetches = append(w.fetches, Fetch{Program: prog})
		return
	}
	for _, t := range targets(p) {
		w.fetches = append(w.fetches, Fetch{Program: prog, URL: fetchURL(t, globs)})
	}
}

// fetchURL returns a URL with its scheme, or "" when the address is only
// known at run time (or the client expands patterns in it).
func fetchURL(a arg, globs bool) string {
	if !a.lit || a.text == "" || globs && strings.ContainsAny(a.text, "{}[]") {
		return ""
	}
	if strings.Contains(a.text, "://") {
		return a.text
	}
	return "http://" + a.text
}

// socketValues are the options of nc, ncat, netcat and telnet that take a
// value.
const socketValues = "wpsiqxXecIOTVMmlbn"

// socketFetch records the host and port a socket client connects to.
func socketFetch(w *walker, prog string, args []arg) {
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.lit {
			w.fetches = append(w.fetches, Fetch{Program: prog})
			return
		}
		if c := shortCluster(a); c != "" {
			if strings.ContainsAny(c[len(c)-1:], socketValues) && i+1 < len(args) && prog != "telnet" {
				i++
			}
			continue
		}
		if strings.HasPrefix(a.text, "--") {
			continue
		}
		words = append(words, a.text)
	}
	if len(words) == 0 {
		w.fetches = append(w.fetches, Fetch{Program: prog})
		return
	}
	url := "tcp://" + words[0]
	if len(words) > 1 {
		url += ":" + words[1]
	}
	w.fetches = append(w.fetches, Fetch{Program: prog, URL: url})
}

// curlElsewhere are curl's options that make it connect somewhere other
// than the URL says: another host or port for a name (--connect-to,
// --resolve), a proxy, a socket, a name server, a redirect (which can go
// anywhere), options from a file.
var curlElsewhere = escapeSpec{
	runLong: []string{"connect-to", "resolve", "location", "location-trusted", "proxy", "preproxy", "socks4", "socks4a",
		"socks5", "socks5-hostname", "proxy1.0", "unix-socket", "abstract-unix-socket", "interface", "dns-servers",
		"dns-interface", "dns-ipv4-addr", "dns-ipv6-addr", "doh-url", "config", "alt-svc", "ipfs-gateway"},
	runShort: "LxK",
}

// wgetElsewhere are wget's: commands and options from elsewhere, links
// from a file or page, other hosts in a recursive fetch, another address.
var wgetElsewhere = escapeSpec{
	runLong: []string{"execute", "input-file", "base", "config", "span-hosts", "bind-address", "recursive", "mirror",
		"page-requisites", "force-html", "use-askpass", "method", "body-file"},
	runShort: "eiBHrmpF",
	abbrev:   true,
}

// curlRedirects says why the addresses curl is given may not be the
// ones it connects to, or "".
func curlRedirects(prog string, args []arg) string {
	return elsewhere(prog, args, curlElsewhere)
}

// wgetRedirects says why the addresses wget is given may not be the ones
// it connects to, or "". wget follows redirects unless told not to
// (--max-redirect=0).
func wgetRedirects(prog string, args []arg) string {
	if !slices.ContainsFunc(args, func(a arg) bool { return a.is("--max-redirect=0") }) &&
		!slices.ContainsFunc(args, func(a arg) bool { return a.is("--max-redirect") }) {
		return fmt.Sprintf("%q follows redirects, which can lead anywhere (--max-redirect=0 stops that)", prog)
	}
	return elsewhere(prog, args, wgetElsewhere)
}

// elsewhere says which of a client's words, read against spec, may send
// it somewhere other than its addresses, or "".
func elsewhere(prog string, args []arg, spec escapeSpec) string {
	for _, a := range args {
		if a.is("--") {
			break
		}
		if !a.lit {
			if !a.dashSafe {
				return fmt.Sprintf("%q is given %s, which could be an option that changes where it connects", prog, a.text)
			}
			continue
		}
		if name, _, _, ok := longOption(a.text, spec); ok {
			if matchLong(name, spec.runLong, spec.abbrev) {
				return fmt.Sprintf("%q %s changes where it connects", prog, a.text)
			}
			continue
		}
		if c := shortCluster(a); c != "" && strings.ContainsAny(c, spec.runShort) {
			return fmt.Sprintf("%q %s changes where it connects", prog, a.text)
		}
	}
	return ""
}

// unknownAddresses marks the fetches from index n on as going to an
// address only known at run time, keeping the address as written.
func (w *walker) unknownAddresses(n int, why string) {
	for i := n; i < len(w.fetches); i++ {
		if w.fetches[i].URL != "" {
			w.fetches[i].Written = w.fetches[i].URL
		}
		w.fetches[i].URL = ""
		w.fetches[i].Why = why
	}
}

// proxyVariable reports whether an environment variable can send a
// client's requests somewhere else, or load options that can.
func proxyVariable(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, "_proxy") || n == "curl_home" || n == "wgetrc" || n == "curl_ca_bundle" ||
		n == "xdg_config_home" || n == "home" || n == "socks_server" || n == "resolv_host_conf" || n == "hostaliases" ||
		n == "localdomain" || n == "res_options" || n == "ld_preload"
}

// networkPrograms are network clients: the addresses they reach are
// recorded for the rules on web fetches.
var networkPrograms = family{
	"aria2c": {fetch: urlFetch},
	"curl":   {check: curlCmd, escapes: &escapeSpec{writeLong: []string{"output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "hsts", "alt-svc", "output-dir"}, runLong: []string{"config"}, writeShort: "oDc", runShort: "K", writeFlags: []string{"remote-name", "remote-name-all", "remote-header-name"}, writeFlagShort: "OJ"}, fetch: curlFetch, elsewhere: curlRedirects},
	"elinks": {fetch: urlFetch},
	"http":   {fetch: urlFetch},
	"httpie": {fetch: urlFetch},
	"https":  {fetch: urlFetch},
	"links":  {fetch: urlFetch},
	"lynx":   {fetch: urlFetch},
	"nc":     {fetch: socketFetch},
	"ncat":   {fetch: socketFetch},
	"netcat": {fetch: socketFetch},
	"rsync":  {writes: "copies files", commandOptions: []string{"-e", "--rsh", "--rsync-path"}, files: files{reads: true}},
	"scp":    {writes: "copies files", commandOptions: []string{"-S", "-o", "-F"}, files: files{reads: true}},
	"sftp":   {commandOptions: []string{"-S", "-o", "-F", "-D"}},
	"socat":  {fetch: urlFetch},
	"ssh":    {wrapper: &wrapper{why: "runs commands on another machine", spec: optSpec{flags: "46AaCfGgKkMNnqsTtVvXxYy", values: "BbcDEeFIiJLlmOoPpQRSWw"}, skip: 1, joined: true}, writes: "runs commands on another machine", runs: true, commandOptions: []string{"-o", "-F"}},
	"telnet": {fetch: socketFetch},
	"w3m":    {fetch: urlFetch},
	"wget":   {check: wgetCmd, escapes: &escapeSpec{writeLong: []string{"output-document", "output-file", "append-output", "directory-prefix", "save-cookies", "warc-file", "save-headers"}, runLong: []string{"execute", "use-askpass"}, writeShort: "OoaP", runShort: "e", abbrev: true}, fetch: wgetFetch, elsewhere: wgetRedirects},
	"xh":     {fetch: urlFetch},
	"xhs":    {fetch: urlFetch},
}
