package shellclass

import (
	"fmt"
	"slices"
	"strings"
)

// This file holds container and service managers: only their listing and
// inspecting subcommands are read-only.

// dockerReadOnly lists, per docker command group, the read-only
// subcommands; the "" group holds the top-level ones.
var dockerReadOnly = map[string][]string{
	"":          {"ps", "images", "inspect", "logs", "version", "info", "history", "top", "port", "stats", "diff"},
	"image":     {"ls", "list", "inspect", "history"},
	"container": {"ls", "list", "inspect", "logs", "top", "port", "stats", "diff"},
	"network":   {"ls", "list", "inspect"},
	"volume":    {"ls", "list", "inspect"},
	"context":   {"ls", "list", "inspect", "show"},
	"compose":   {"ps", "logs", "ls", "images", "config", "version", "top"},
}

// dockerCmd allows docker's listing and inspecting subcommands.
func dockerCmd(_ *walker, prog string, args []arg) string {
	if len(args) == 1 && (args[0].is("--version") || args[0].is("-v")) {
		return ""
	}
	if len(args) == 0 {
		return ""
	}
	sub := args[0]
	if !sub.lit || sub.isOpt() {
		return fmt.Sprintf("%q is given %s before its subcommand, which is not checked", prog, sub.text)
	}
	rest := args[1:]
	name := sub.text
	if group, ok := dockerReadOnly[sub.text]; ok && sub.text != "" {
		if len(rest) == 0 || !rest[0].lit || !slices.Contains(group, rest[0].text) {
			return fmt.Sprintf("%q is only read-only for %s", prog+" "+sub.text, strings.Join(group, ", "))
		}
		name += " " + rest[0].text
		rest = rest[1:]
	} else if !slices.Contains(dockerReadOnly[""], sub.text) {
		return fmt.Sprintf("%q is not a read-only docker command", prog+" "+sub.text)
	}
	for _, a := range rest {
		if reason := unsure(prog+" "+name, a); reason != "" {
			return reason
		}
	}
	return ""
}

// kubectlReadOnly are kubectl's read-only subcommands.
var kubectlReadOnly = map[string]bool{
	"get": true, "describe": true, "logs": true, "version": true,
	"explain": true, "api-resources": true, "api-versions": true,
	"cluster-info": true, "top": true,
}

// kubectlCmd allows kubectl's reading subcommands. A kubeconfig given on
// the command line can run credential plugins, so it is refused.
func kubectlCmd(_ *walker, prog string, args []arg) string {
	i := 0
	for i < len(args) && args[i].isOpt() {
		name, _, hasVal := strings.Cut(args[i].text, "=")
		switch name {
		case "-n", "--namespace", "--context", "--cluster":
			if !hasVal {
				i++
			}
			i++
		default:
			return fmt.Sprintf("%q option %s before the subcommand is not checked", prog, args[i].text)
		}
	}
	if i >= len(args) {
		return ""
	}
	sub := args[i]
	rest := args[i+1:]
	switch {
	case !sub.lit:
		return fmt.Sprintf("%q is given the subcommand %s, which is only known at run time", prog, sub.text)
	case sub.text == "config":
		if len(rest) == 0 || !rest[0].lit || !slices.Contains([]string{"view", "get-contexts", "current-context", "get-clusters"}, rest[0].text) {
			return fmt.Sprintf("%q changes the kubeconfig or is not checked", "kubectl config")
		}
	case sub.text == "cluster-info" && len(rest) > 0 && rest[0].is("dump"):
		return `"kubectl cluster-info dump" can write files`
	case !kubectlReadOnly[sub.text]:
		return fmt.Sprintf("%q is not a read-only kubectl command", "kubectl "+sub.text)
	}
	for _, a := range rest {
		if reason := unsure("kubectl "+sub.text, a); reason != "" {
			return reason
		}
		if a.lit && longPrefixOf(a.text, "kubeconfig") {
			return `"kubectl --kubeconfig" can run credential plugins from that file`
		}
		for _, bad := range []string{"cache-dir", "log-file", "log-dir", "profile-output"} {
			if a.lit && longPrefixOf(a.text, bad) {
				return fmt.Sprintf("%q --%s writes files", "kubectl "+sub.text, bad)
			}
		}
	}
	return ""
}

// systemctl's read-only verbs and the options allowed before the verb.
var (
	systemctlVerbs = map[string]bool{
		"status": true, "list-units": true, "is-active": true, "is-enabled": true,
		"is-failed": true, "list-unit-files": true, "list-timers": true,
		"list-sockets": true, "list-dependencies": true, "show": true, "cat": true,
		"list-jobs": true, "is-system-running": true, "get-default": true,
		"show-environment": true,
	}
	systemctlFlags = map[string]bool{
		"--user": true, "--system": true, "--no-pager": true, "--all": true,
		"-a": true, "-l": true, "--full": true, "-q": true, "--quiet": true,
		"--failed": true, "--plain": true, "--no-legend": true, "--value": true,
		"-r": true, "--recursive": true, "--no-ask-password": true,
	}
	systemctlValues = map[string]bool{
		"-t": true, "--type": true, "--state": true, "-p": true,
		"--property": true, "-n": true, "--lines": true, "-o": true, "--output": true,
	}
)

// systemctlCmd allows systemctl's status and listing verbs.
func systemctlCmd(_ *walker, prog string, args []arg) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.lit {
			return fmt.Sprintf("%q is given %s before its verb, which is not checked", prog, a.text)
		}
		if !a.isOpt() {
			if systemctlVerbs[a.text] {
				return ""
			}
			return fmt.Sprintf("%q is not read-only", prog+" "+a.text)
		}
		name, _, hasVal := strings.Cut(a.text, "=")
		switch {
		case systemctlFlags[a.text]:
		case systemctlValues[name]:
			if !hasVal {
				i++
			}
		default:
			return fmt.Sprintf("%q option %s before the verb is not checked", prog, a.text)
		}
	}
	return "" // no verb: list-units
}

// servicePrograms manage containers and services by asking a service over
// a socket.
var servicePrograms = family{
	"docker":    {leadingValues: []string{"-H", "--host", "--config", "-c", "--context", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"}, check: dockerCmd, service: true},
	"kubectl":   {leadingValues: []string{"-n", "--namespace", "--context", "--cluster", "--kubeconfig", "--server", "-s", "--user", "--token", "--as", "--as-group", "--certificate-authority", "--client-certificate", "--client-key", "--request-timeout", "-v", "--cache-dir", "--tls-server-name", "--profile", "--profile-output"}, check: kubectlCmd, service: true},
	"service":   {writes: "starts and stops services"},
	"systemctl": {check: systemctlCmd, service: true},
}
