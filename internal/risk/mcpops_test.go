package risk

import (
	"testing"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
)

// TestMCPOps: an MCP server's git tools (cyanheads/git-mcp-server's
// git_reset, git_clean, git_push, git_stash, git_branch, git_checkout,
// git_worktree; the reference server's git_reset and git_checkout) are
// judged as the git command line they run, and its database tools
// (Supabase's execute_sql and apply_migration, Neon's run_sql, SQLite's
// write_query, MongoDB's drop-collection, …) by the SQL or the operation
// they run: data no checkpoint brings back. Their look-alikes that keep
// work and data stay allowed.
func TestMCPOps(t *testing.T) {
	root := sample(t)
	g := newGuard(t, root, nil)
	checkMCP(t, g, root, []mcpCase{
		// git, cyanheads/git-mcp-server's schemas (path is the repository)
		{"mcp__git__git_reset", `{"path":".","mode":"hard"}`, answer.Deny, "git-reset-hard"},
		{"mcp__git__git_reset", `{"path":".","mode":"merge","target":"HEAD~1"}`, answer.Deny, "git-reset-hard"},
		{"mcp__git__git_clean", `{"path":".","force":true,"directories":true}`, answer.Deny, "git-clean-force"},
		{"mcp__git__git_push", `{"path":".","remote":"origin","branch":"main","force":true}`, answer.Deny, "git-push-force"},
		{"mcp__git__git_push", `{"path":".","remote":"origin","branch":"old","delete":true}`, answer.Ask, "git-push-delete"},
		{"mcp__git__git_stash", `{"path":".","mode":"clear"}`, answer.Deny, "git-stash-drop"},
		{"mcp__git__git_stash", `{"path":".","mode":"drop","stashRef":"stash@{0}"}`, answer.Deny, "git-stash-drop"},
		{"mcp__git__git_branch", `{"path":".","operation":"delete","name":"feature","force":true}`, answer.Deny, "git-branch-force-delete"},
		{"mcp__git__git_checkout", `{"path":".","target":"HEAD","paths":["src/main.go"]}`, answer.Deny, "git-checkout-discard"},
		{"mcp__git__git_checkout", `{"path":".","target":"main","force":true}`, answer.Deny, "git-checkout-discard"},
		{"mcp__git-tools__git_rm", `{"path":".","files":["src/main_test.go"]}`, answer.Deny, "test-delete"},
		// the reference server (repo_path is the repository)
		{"mcp__git__git_checkout", `{"repo_path":".","branch_name":"main"}`, answer.Allow, ""},
		{"mcp__git__git_reset", `{"repo_path":"."}`, answer.Allow, ""},
		// look-alikes that keep work
		{"mcp__git__git_reset", `{"path":".","mode":"soft","target":"HEAD~1"}`, answer.Allow, ""},
		{"mcp__git__git_reset", `{"path":"."}`, answer.Allow, ""},
		{"mcp__git__git_clean", `{"path":".","force":true,"dryRun":true}`, answer.Allow, ""},
		{"mcp__git__git_push", `{"path":".","remote":"origin","branch":"main","forceWithLease":true}`, answer.Allow, ""},
		{"mcp__git__git_push", `{"path":".","remote":"origin","branch":"main"}`, answer.Allow, ""},
		{"mcp__git__git_stash", `{"path":".","mode":"push","message":"wip"}`, answer.Allow, ""},
		{"mcp__git__git_stash", `{"path":".","mode":"list"}`, answer.Allow, ""},
		{"mcp__git__git_branch", `{"path":".","operation":"create","name":"feature"}`, answer.Allow, ""},
		{"mcp__git__git_branch", `{"path":".","operation":"list","all":true}`, answer.Allow, ""},
		{"mcp__git__git_status", `{"path":"."}`, answer.Allow, ""},
		{"mcp__git__git_log", `{"path":".","maxCount":5}`, answer.Allow, ""},
		{"mcp__git__git_set_working_dir", `{"path":"."}`, answer.Allow, ""},
		{"mcp__git__git_stash_drop", `{"path":"."}`, answer.Deny, "git-stash-drop"},
		{"mcp__git__git_branch_delete", `{"path":".","name":"feature","force":true}`, answer.Deny, "git-branch-force-delete"},
		{"mcp__git__reset", `{"path":".","mode":"hard"}`, answer.Deny, "git-reset-hard"},
		{"mcp__git__git_rm", `{"path":".","files":[".aiwg/ralph/state.json"]}`, answer.Deny, "tamper"},
		{"mcp__git__git_checkout", `{"path":".","target":"HEAD~3","paths":[".claude/settings.json"]}`, answer.Deny, "tamper"},
		{"mcp__github__merge_pull_request", `{"owner":"o","repo":"r","pull_number":3}`, answer.Allow, ""},
		{"mcp__github__push_files", `{"owner":"o","repo":"r","branch":"main","files":[]}`, answer.Allow, ""},
		{"mcp__gitlab__merge_merge_request", `{"project_id":"1","merge_request_iid":"2"}`, answer.Allow, ""},

		// databases
		{"mcp__supabase__execute_sql", `{"project_id":"abc","query":"DROP TABLE users;"}`, answer.Deny, "sql-drop"},
		{"mcp__supabase__apply_migration", `{"project_id":"abc","name":"x","query":"TRUNCATE orders"}`, answer.Deny, "sql-drop"},
		{"mcp__neon__run_sql_transaction", `{"projectId":"p","sqlStatements":["SELECT 1","DELETE FROM users"]}`, answer.Deny, "sql-drop"},
		{"mcp__postgres__query", `{"sql":"update accounts set balance = 0"}`, answer.Deny, "sql-drop"},
		{"mcp__sqlite__write_query", `{"query":"DELETE FROM items"}`, answer.Deny, "sql-drop"},
		{"mcp__mongodb__drop-collection", `{"database":"app","collection":"users"}`, answer.Deny, "sql-drop"},
		{"mcp__mongodb__drop-database", `{"database":"app"}`, answer.Deny, "sql-drop"},
		{"mcp__mongodb__delete-many", `{"database":"app","collection":"users","filter":{}}`, answer.Deny, "sql-drop"},
		{"mcp__redis__flushdb", `{}`, answer.Deny, "sql-drop"},
		{"mcp__mongodb__update-many", `{"database":"app","collection":"users","filter":{},"update":{"$set":{"admin":true}}}`, answer.Deny, "sql-drop"},
		{"mcp__mysql__mysql_query", `{"sql":"SELECT 1; DROP DATABASE app"}`, answer.Deny, "sql-drop"},
		{"mcp__supabase__execute_sql", `{"project_id":"abc","query":"SELECT * FROM users"}`, answer.Allow, ""},
		{"mcp__supabase__execute_sql", `{"project_id":"abc","query":"DELETE FROM users WHERE id = 3"}`, answer.Allow, ""},
		{"mcp__supabase__apply_migration", `{"project_id":"abc","name":"x","query":"CREATE TABLE t (id int)"}`, answer.Allow, ""},
		{"mcp__mongodb__delete-many", `{"database":"app","collection":"users","filter":{"age":{"$lt":0}}}`, answer.Allow, ""},
		{"mcp__mongodb__find", `{"database":"app","collection":"users","filter":{}}`, answer.Allow, ""},
		// Kubernetes and Docker
		{"mcp__kubernetes__kubectl_delete", `{"resourceType":"namespace","name":"prod"}`, answer.Ask, "infra-destroy"},
		{"mcp__kubernetes__kubectl_delete", `{"resourceType":"pvc","name":"data","namespace":"db"}`, answer.Ask, "infra-destroy"},
		{"mcp__kubernetes__kubectl_generic", `{"command":"delete","resourceType":"pods","flags":["--all"]}`, answer.Ask, "infra-destroy"},
		{"mcp__kubernetes__exec_in_pod", `{"name":"web","command":["rm","-rf","/data"]}`, answer.Deny, "rm-outside"},
		{"mcp__kubernetes__exec_in_pod", `{"name":"web","command":"rm -rf /var/lib/data"}`, answer.Deny, "rm-outside"},
		{"mcp__kubernetes__uninstall_helm_chart", `{"name":"app","namespace":"prod"}`, answer.Ask, "infra-destroy"},
		{"mcp__docker__remove_volume", `{"volume_name":"pgdata","force":true}`, answer.Ask, "infra-destroy"},
		{"mcp__kubernetes__kubectl_delete", `{"resourceType":"pod","name":"web-1"}`, answer.Allow, ""},
		{"mcp__kubernetes__kubectl_get", `{"resourceType":"pods","allNamespaces":true}`, answer.Allow, ""},
		{"mcp__kubernetes__exec_in_pod", `{"name":"web","command":["ls","/data"]}`, answer.Allow, ""},
		{"mcp__docker__remove_container", `{"container_id":"web","force":true}`, answer.Allow, ""},
		{"mcp__docker__list_volumes", `{}`, answer.Allow, ""},
		{"mcp__docs__search", `{"query":"DROP TABLE users"}`, answer.Allow, ""},
		{"mcp__redis__get", `{"key":"flushdb"}`, answer.Allow, ""},
	})
}
