package risk

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// MCP servers' git and database tools do what git and a database client
// do, under other names and with their options as JSON:
// cyanheads/git-mcp-server's git_reset {"mode":"hard"} is git reset
// --hard, Supabase's execute_sql {"query":"DROP TABLE users"} is psql -c.
// mcpGit turns a git tool's input into the git command line it runs, to
// be judged as one; mcpData finds SQL and data operations that no
// checkpoint brings back.

// mcpGitSubs are the git subcommands whose tools are read (the others —
// status, log, diff, add, commit, fetch… — change no work of the tree's).
var mcpGitSubs = []string{"reset", "clean", "push", "stash", "branch", "checkout", "restore", "switch",
	"worktree", "rm", "merge", "rebase", "cherry-pick", "revert", "commit"}

// mcpTool splits an MCP tool's name, mcp__SERVER__TOOL, into its server
// and tool, lowercased; a name of another form is all tool.
func mcpTool(name string) (server, tool string) {
	name = strings.ToLower(name)
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if s, t, ok := strings.Cut(rest, "__"); ok {
			return s, t
		}
	}
	return "", name
}

// mcpGit returns the git command line that a git tool's call runs (git
// reset --hard for git_reset {"mode":"hard"}) and the directory it runs
// in, or "" when the tool is none ralph reads.
func mcpGit(name string, in gjson.Result, cwd string) (line, dir string) {
	server, tool := mcpTool(name)
	tool = strings.ReplaceAll(tool, "_", "-")
	for _, k := range []string{"owner", "pull_number", "project_id", "projectId", "url"} {
		if in.Get(k).Exists() {
			return "", "" // a forge's repository (GitHub's, GitLab's), not the tree
		}
	}
	if strings.Contains(server, "github") || strings.Contains(server, "gitlab") || strings.Contains(server, "gitea") {
		return "", ""
	}
	sub, ok := strings.CutPrefix(tool, "git-")
	if !ok {
		if !strings.Contains(server, "git") {
			return "", ""
		}
		sub = tool // a git server's bare reset, clean, …
	}
	extra := ""
	if !slices.Contains(mcpGitSubs, sub) {
		// git_stash_drop, git_branch_delete, git_worktree_remove
		head, rest, _ := strings.Cut(sub, "-")
		if !slices.Contains(mcpGitSubs, head) {
			return "", ""
		}
		sub, extra = head, rest
	}
	keys := map[string]gjson.Result{}
	in.ForEach(func(k, v gjson.Result) bool {
		keys[strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(k.Str))] = v
		return true
	})
	str := func(names ...string) string {
		for _, n := range names {
			if v, ok := keys[n]; ok && v.Type == gjson.String && v.Str != "" {
				return v.Str
			}
		}
		return ""
	}
	on := func(names ...string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return keys[n].Type == gjson.True })
	}
	var files []string
	for _, n := range []string{"paths", "pathspec", "pathspecs", "files", "filepaths", "file"} {
		v := keys[n]
		if v.Type == gjson.String {
			files = append(files, v.Str)
		}
		for _, f := range v.Array() {
			if f.Type == gjson.String {
				files = append(files, f.Str)
			}
		}
	}
	dir = cwd
	if d := str("repopath", "repository", "repositorypath", "repo", "cwd", "workingdirectory", "workdir", "directory", "dir", "path"); d != "" {
		dir = abs(cwd, d)
	}
	mode := str("mode", "operation", "action", "subcommand", "command")
	if mode == "" {
		mode = extra
	}
	args := []string{"git", sub}
	flag := func(f string, cond bool) {
		if cond {
			args = append(args, f)
		}
	}
	operand := func(names ...string) {
		if s := str(names...); s != "" {
			args = append(args, word(s))
		}
	}
	switch sub {
	case "reset":
		if slices.Contains([]string{"soft", "mixed", "hard", "merge", "keep"}, mode) {
			args = append(args, "--"+mode)
		}
		flag("--hard", on("hard"))
		operand("target", "commit", "ref", "revision", "treeish")
	case "clean":
		// A clean tool deletes untracked files unless it is told to
		// only list them, whether or not it asks for a force flag.
		if on("dryrun", "n") {
			args = append(args, "-n")
		} else {
			args = append(args, "-f")
		}
		flag("-d", on("directories", "dirs", "d"))
		flag("-x", on("ignored", "x"))
	case "push":
		flag("--force", on("force", "f"))
		flag("--force-with-lease", on("forcewithlease"))
		flag("--delete", on("delete"))
		flag("--mirror", on("mirror"))
		flag("--dry-run", on("dryrun"))
		operand("remote")
		if b, rb := str("branch", "refspec", "ref"), str("remotebranch"); b != "" && rb != "" {
			args = append(args, word(b+":"+rb))
		} else {
			operand("branch", "refspec", "ref", "remotebranch")
		}
	case "stash":
		if mode != "" {
			args = append(args, word(mode))
		}
		operand("stashref", "stash", "ref")
	case "branch":
		flag("-d", mode == "delete" || on("delete"))
		flag("--force", on("force", "f"))
		operand("name", "branch", "branchname")
	case "checkout", "switch":
		flag("--force", on("force", "f"))
		flag("--discard-changes", on("discardchanges"))
		if on("createbranch", "create", "newbranch") {
			args = append(args, "-b")
		}
		operand("target", "branchname", "branch", "commit", "ref", "startpoint")
	case "restore":
		flag("--staged", on("staged"))
		flag("--worktree", on("worktree"))
		if s := str("source"); s != "" {
			args = append(args, "--source="+word(s))
		}
	case "worktree":
		if mode != "" {
			args = append(args, word(mode))
		}
		flag("--force", on("force", "f"))
		operand("worktreepath")
	case "rm":
		flag("-f", on("force", "f"))
		flag("--cached", on("cached"))
		flag("-r", on("recursive", "r"))
	case "merge", "rebase", "cherry-pick", "revert":
		flag("--abort", on("abort") || mode == "abort")
		operand("target", "branch", "commit", "ref", "upstream", "onto")
	case "commit":
		flag("--no-verify", on("noverify"))
		flag("--amend", on("amend"))
	}
	if len(files) > 0 {
		args = append(args, "--")
		for _, f := range files {
			args = append(args, word(f))
		}
	}
	return strings.Join(args, " "), dir
}

// mcpInfra returns the kubectl, helm or docker command line that a
// Kubernetes or Docker server's tool runs (Flux159/mcp-server-kubernetes'
// kubectl_delete, kubectl_generic, exec_in_pod and uninstall_helm_chart;
// mcp-server-docker's remove_volume, remove_container, remove_image), or
// "" when the tool is none of those.
func mcpInfra(name string, in gjson.Result) string {
	server, tool := mcpTool(name)
	tool = strings.ReplaceAll(tool, "-", "_")
	str := func(keys ...string) string {
		for _, k := range keys {
			if v := in.Get(k); v.Type == gjson.String && v.Str != "" {
				return word(v.Str)
			}
		}
		return ""
	}
	words := func(keys ...string) []string {
		var out []string
		for _, k := range keys {
			v := in.Get(k)
			if v.Type == gjson.String && v.Str != "" {
				out = append(out, v.Str) // a command line as one string
			}
			for _, a := range v.Array() {
				if a.Type == gjson.String {
					out = append(out, word(a.Str))
				}
			}
		}
		return out
	}
	line := func(parts ...string) string {
		return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), " ")
	}
	ns := ""
	if n := str("namespace"); n != "" {
		ns = "-n " + n
	}
	all := ""
	if in.Get("allNamespaces").Bool() || in.Get("all_namespaces").Bool() {
		all = "--all-namespaces"
	}
	switch {
	case tool == "exec_in_pod" || tool == "pod_exec" || strings.HasPrefix(tool, "kubectl_exec"):
		return line(append([]string{"kubectl", "exec", str("name", "pod", "podName"), ns, "--"}, words("command", "cmd")...)...)
	case tool == "kubectl_generic" || tool == "kubectl":
		return line(append([]string{"kubectl", str("command"), str("subCommand", "subcommand"), str("resourceType", "resource_type", "resource"), str("name"), ns, all},
			append(words("args"), words("flags")...)...)...)
	case strings.HasPrefix(tool, "kubectl_"):
		verb := strings.TrimPrefix(tool, "kubectl_")
		if in.Get("allNamespaces").Bool() || in.Get("all").Bool() && !strings.Contains(all, "all") {
			all = "--all"
		}
		return line("kubectl", verb, str("resourceType", "resource_type", "resource", "kind"), str("name"), ns, all)
	case tool == "uninstall_helm_chart" || tool == "helm_uninstall" || tool == "uninstall_chart":
		return line("helm", "uninstall", str("name", "release"), ns)
	}
	if !strings.Contains(server, "docker") && !strings.Contains(server, "podman") && !strings.Contains(tool, "docker") {
		return ""
	}
	for _, kind := range []string{"volume", "container", "image", "network"} {
		if tool == "remove_"+kind || tool == "delete_"+kind || tool == "docker_remove_"+kind || tool == kind+"_remove" {
			force := ""
			if in.Get("force").Bool() {
				force = "--force"
			}
			return line("docker", kind, "rm", force, str(kind+"_name", kind+"_id", kind+"Id", kind+"Name", "name", "id"))
		}
		if tool == "prune_"+kind+"s" || tool == kind+"_prune" {
			return line("docker", kind, "prune", "--force")
		}
	}
	return ""
}

// word quotes s for the shell unless it is a plain word (HEAD~1,
// origin, stash@{0}, src/a.go), so that the line reads as typed.
func word(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/:-+=@~^%", r))
	}) < 0
	if plain && s[0] != '-' && s[0] != '~' {
		return s
	}
	return quote(s)
}

// mcpSQLKeys are the input keys that hold SQL text (Supabase's query,
// Neon's sql and sqlStatements, …), lowercased without _ and -.
var mcpSQLKeys = []string{"sql", "query", "queries", "statement", "statements", "sqlstatements", "sqlquery"}

// mcpData returns why a database tool's call destroys data with no way
// back, or "": SQL that drops, truncates, or deletes or updates every row,
// a drop or flush named by the tool (MongoDB's drop-collection, Redis's
// flushdb), a delete-many with an empty filter.
func mcpData(name string, in gjson.Result) string {
	_, tool := mcpTool(name)
	has := func(words ...string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(tool, w) })
	}
	// Search and documentation tools take a query that is words, not SQL
	// to run.
	if has("search", "docs", "documentation", "explain", "lint", "format", "parse", "translate") {
		return ""
	}
	if has("sql", "query", "exec", "run", "migrat", "statement", "transaction", "write", "mutat") {
		var texts []string
		in.ForEach(func(k, v gjson.Result) bool {
			key := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(k.Str))
			if !slices.Contains(mcpSQLKeys, key) {
				return true
			}
			if v.Type == gjson.String {
				texts = append(texts, v.Str)
			}
			for _, s := range v.Array() {
				if s.Type == gjson.String {
					texts = append(texts, s.Str)
				}
			}
			return true
		})
		for _, t := range texts {
			if stmt := destructiveSQL(t); stmt != "" {
				return fmt.Sprintf("runs `%s`, which destroys data with no way back. Write a migration the human can review instead.", stmt)
			}
		}
	}
	words := strings.FieldsFunc(tool, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	switch {
	case slices.Contains(words, "drop") || slices.Contains(words, "truncate"):
		return "drops a database, a table or a collection with all its data."
	case slices.Contains(words, "flushdb") || slices.Contains(words, "flushall") || slices.Contains(words, "flush") && has("db", "all", "redis", "cache", "keys"):
		return "deletes every key of the database."
	case has("deletemany", "delete-many", "delete_many", "removemany", "remove-many", "remove_many",
		"updatemany", "update-many", "update_many"):
		f := in.Get("filter")
		if !f.Exists() || f.IsObject() && len(f.Map()) == 0 {
			return "changes or deletes every document of the collection (an empty filter matches all)."
		}
	}
	return ""
}
