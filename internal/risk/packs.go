package risk

import (
	"net/url"
	"path"
	"strings"

	"github.com/ralph-hooks/ralph-hooks/internal/answer"
	"github.com/ralph-hooks/ralph-hooks/internal/shell"
)

// Pack is an opt-in rule pack: one rule for the destructive commands of a
// kind of service, off unless aiwg.yml's risk_packs names the pack. Its
// rule is overridden (level, action, message) like a built-in one.
type Pack struct {
	Name string // as risk_packs names it
	Rule Builtin
	// patterns are the commands it catches: a program, then words that
	// must follow in order ("x*" a prefix, "~x" a word holding x), and
	// words that must not appear ("!x"; "!-n" also in a cluster like -an).
	patterns []string
	// http says whether an HTTP request (curl, wget, httpie) with this
	// method to this URL is one the pack catches.
	http func(method string, u *url.URL) bool
}

// Packs are the opt-in rule packs, after dcg's packs of the same names.
var Packs = []Pack{
	{Name: "backups", Rule: Builtin{"backup-delete", High, answer.Ask,
		"deleting backups, snapshots or archives (restic forget/prune, borg delete/prune, velero … delete), and syncs or moves that delete at the destination or the source (rclone sync/move/purge/delete, rsync --delete, --remove-source-files)",
		"restic forget --keep-last 1 --prune"},
		patterns: []string{
			"rclone delete", "rclone deletefile", "rclone purge", "rclone rmdir", "rclone rmdirs", "rclone cleanup",
			"rclone move !--dry-run", "rclone moveto !--dry-run", "rclone sync !--dry-run !-n", "rclone bisync !--dry-run",
			"restic forget", "restic prune", "restic key remove",
			"borg delete", "borg prune", "borg compact", "borg rdelete", "borg repo-delete", "borg recreate",
			"velero delete", "velero backup delete", "velero restore delete", "velero schedule delete", "velero snapshot delete", "velero backup-location delete",
			"rsync --delete* !--dry-run !-n", "rsync --del !--dry-run !-n", "rsync --remove-source-files !--dry-run !-n", "rsync --remove-sent-files !--dry-run !-n",
		}},
	{Name: "cicd", Rule: Builtin{"cicd-delete", High, answer.Ask,
		"deleting CI/CD jobs, pipelines, environments, variables, secrets, caches or runners (Jenkins, GitLab CI, CircleCI, GitHub Actions), by their CLIs or their HTTP APIs",
		"gh secret delete PROD_API_KEY"},
		patterns: []string{
			"circleci context delete", "circleci context remove-secret", "circleci namespace delete", "circleci orb delete",
			"circleci pipeline delete", "circleci project delete",
			"gh secret delete", "gh variable delete", "gh cache delete", "gh workflow disable", "gh run delete", "gh environment delete",
			"gitlab-runner unregister", "glab ci delete", "glab variable delete", "glab schedule delete",
			"java ~jenkins-cli delete-*", "java ~jenkins-cli disable-job", "jenkins-cli delete-*", "jenkins delete-*",
		},
		http: func(m string, u *url.URL) bool {
			p := u.Path
			return m == "POST" && (strings.HasSuffix(p, "/doDelete") || strings.HasSuffix(p, "/doWipeOutWorkspace")) ||
				m == "DELETE" && (strings.Contains(p, "/api/v4/") && containsAny(p, "/jobs", "/pipelines", "/environments", "/variables", "/registry", "/runners", "/artifacts") ||
					strings.Contains(p, "/actions/"))
		}},
	{Name: "messaging", Rule: Builtin{"messaging-delete", High, answer.Ask,
		"deleting or purging topics, queues, streams, consumer groups, records or users (Kafka, RabbitMQ, NATS, SQS/SNS)",
		"kafka-topics --bootstrap-server localhost:9092 --delete --topic orders"},
		patterns: []string{
			"aws sns delete-topic", "aws sns unsubscribe", "aws sqs delete-queue", "aws sqs purge-queue", "aws sqs delete-message*",
			"kafka-topics --delete", "kafka-consumer-groups --delete", "kafka-consumer-groups --reset-offsets --execute",
			"kafka-delete-records", "kafka-configs --alter --delete-config", "kafka-acls --remove",
			"nats stream delete", "nats stream rm", "nats stream purge", "nats consumer delete", "nats consumer rm",
			"nats kv del", "nats kv rm", "nats kv purge", "nats bucket delete", "nats object delete", "nats object rm",
			"rabbitmqadmin delete", "rabbitmqadmin purge", "rabbitmqctl delete_*", "rabbitmqctl clear_*",
			"rabbitmqctl purge_queue", "rabbitmqctl reset", "rabbitmqctl force_reset",
		}},
	{Name: "platform", Rule: Builtin{"platform-delete", High, answer.Ask,
		"deleting or archiving repositories, releases, gists, issues, keys and labels on GitHub or GitLab, by their CLIs or APIs",
		"gh release delete v1.0.0"},
		patterns: []string{
			"gh repo delete", "gh repo archive", "gh release delete", "gh gist delete", "gh issue delete", "gh ssh-key delete",
			"gh gpg-key delete", "gh label delete", "gh project delete", "glab repo delete", "glab release delete", "glab issue delete",
			"glab repo archive",
		},
		http: func(m string, u *url.URL) bool {
			return m == "DELETE" && (strings.HasPrefix(u.Path, "/repos/") || strings.HasPrefix(u.Path, "repos/") ||
				strings.Contains(u.Path, "/api/v4/projects/") && !containsAny(u.Path, "/jobs", "/pipelines", "/environments", "/variables", "/registry", "/runners", "/artifacts"))
		}},
	{Name: "search", Rule: Builtin{"search-delete", High, answer.Ask,
		"deleting indices, documents, snapshots or data streams of Elasticsearch, OpenSearch, Meilisearch or Algolia through their HTTP APIs",
		"curl -X DELETE 'http://localhost:9200/logs-2024'"},
		http: func(m string, u *url.URL) bool {
			if strings.Contains(u.Path, "_delete_by_query") || strings.HasSuffix(u.Path, "/deleteByQuery") {
				return true
			}
			host, port := u.Hostname(), u.Port()
			search := port == "9200" || port == "7700" || strings.HasSuffix(host, "algolia.net") || strings.HasSuffix(host, "algolianet.com") ||
				containsAny(host, "elastic", "opensearch", "meili") || strings.HasPrefix(u.Path, "/indexes/") || strings.HasPrefix(u.Path, "/1/indexes/")
			return m == "DELETE" && search
		}},
	{Name: "secrets", Rule: Builtin{"secrets-delete", High, answer.Ask,
		"deleting, destroying or overwriting secrets, disabling secret engines or auth methods, revoking leases (Vault, AWS Secrets Manager and SSM, 1Password, Doppler)",
		"vault kv destroy -versions=1 secret/app"},
		patterns: []string{
			"aws secretsmanager delete-secret", "aws secretsmanager put-secret-value", "aws secretsmanager update-secret",
			"aws secretsmanager delete-resource-policy", "aws ssm delete-parameter*", "aws ssm put-parameter --overwrite",
			"vault delete", "vault kv delete", "vault kv destroy", "vault kv metadata delete", "vault secrets disable",
			"vault auth disable", "vault policy delete", "vault lease revoke", "vault token revoke", "vault audit disable",
			"doppler secrets delete", "doppler configs delete", "doppler projects delete", "doppler environments delete",
			"op item delete", "op document delete", "op vault delete", "op user delete", "op group delete",
		}},
	{Name: "storage", Rule: Builtin{"storage-delete", High, answer.Ask,
		"deleting buckets, containers and objects, and syncs that delete at the destination (S3, GCS, Azure Blob, MinIO)",
		"aws s3 rb s3://my-bucket --force"},
		patterns: []string{
			"aws s3 rb", "aws s3 rm !--dryrun", "aws s3 sync --delete !--dryrun", "aws s3api delete-bucket*", "aws s3api delete-object*",
			"gsutil rm", "gsutil rb", "gsutil rsync -d", "gcloud storage rm", "gcloud storage buckets delete",
			"az storage container delete", "az storage blob delete*", "az storage account delete", "azcopy remove", "azcopy rm",
			"azcopy sync --delete-destination=true", "mc rm", "mc rb", "mc mirror --remove",
		}},
}

// PackNames lists the packs' names.
func PackNames() []string {
	out := make([]string, len(Packs))
	for i, p := range Packs {
		out[i] = p.Name
	}
	return out
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// packRules applies the enabled packs to c.
func (g *Guard) packRules(c *shell.Cmd) []Finding {
	if len(g.packs) == 0 || c.Name == "" {
		return nil
	}
	text := quoted(c)
	name := strings.TrimSuffix(c.Name, ".sh")
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.Lit()
	}
	var out []Finding
	for _, p := range g.packs {
		hit := ""
		for _, pat := range p.patterns {
			if matchPattern(pat, name, args) {
				hit = pat
				break
			}
		}
		if hit == "" && p.http != nil {
			if m, u := httpRequest(name, args); u != nil && p.http(m, u) {
				hit = m + " " + u.String()
			}
		}
		if hit != "" {
			out = append(out, g.builtin(p.Rule.Name, text+" "+packReason(p), text, nil))
		}
	}
	return out
}

func packReason(p *Pack) string {
	return "is caught by the " + p.Name + " rule pack (risk_packs in aiwg.yml): " + p.Rule.Summary + ". It cannot be undone from here; ask the human."
}

// matchPattern reports whether a command (program name and argument
// values) matches a pack pattern.
func matchPattern(pat, name string, args []string) bool {
	words := strings.Fields(pat)
	if len(words) == 0 || path.Base(words[0]) != name {
		return false
	}
	i := 0
	var want []string
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "!") {
			if present(w[1:], args) {
				return false
			}
			continue
		}
		want = append(want, w)
	}
	for _, a := range args {
		if i < len(want) && wordMatch(want[i], a) {
			i++
		}
	}
	return i == len(want)
}

func wordMatch(w, a string) bool {
	switch {
	case strings.HasPrefix(w, "~"):
		return strings.Contains(a, w[1:])
	case strings.HasSuffix(w, "*"):
		return strings.HasPrefix(a, strings.TrimSuffix(w, "*"))
	}
	return a == w || strings.HasPrefix(a, w+"=")
}

// present reports whether option o is among args: -n also inside a
// cluster of short options (-an).
func present(o string, args []string) bool {
	for _, a := range args {
		if wordMatch(o, a) {
			return true
		}
		if len(o) == 2 && o[0] == '-' && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], o[1]) >= 0 {
			return true
		}
	}
	return false
}

// httpRequest reads the method and URL of curl, wget or httpie, or
// returns a nil URL.
func httpRequest(name string, args []string) (string, *url.URL) {
	method, target := "", ""
	switch name {
	case "curl":
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-X" || a == "--request":
				if i+1 < len(args) {
					method = strings.ToUpper(args[i+1])
					i++
				}
			case strings.HasPrefix(a, "-X") && len(a) > 2:
				method = strings.ToUpper(a[2:])
			case strings.HasPrefix(a, "--request="):
				method = strings.ToUpper(strings.TrimPrefix(a, "--request="))
			case (a == "-d" || a == "--data" || a == "--data-raw" || a == "--data-binary" || a == "--json") && method == "":
				method = "POST"
				i++
			case a == "-H" || a == "--header" || a == "-o" || a == "--output" || a == "-u" || a == "--user" || a == "-d" || a == "--data":
				i++
			case target == "" && !strings.HasPrefix(a, "-"):
				target = a
			}
		}
		if method == "" {
			method = "GET"
		}
	case "wget":
		method = "GET"
		for _, a := range args {
			if m, ok := strings.CutPrefix(a, "--method="); ok {
				method = strings.ToUpper(m)
			} else if !strings.HasPrefix(a, "-") && target == "" {
				target = a
			}
		}
	case "gh", "glab":
		if len(args) == 0 || args[0] != "api" {
			return "", nil
		}
		method = "GET"
		for i := 1; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-X" || a == "--method":
				if i+1 < len(args) {
					method = strings.ToUpper(args[i+1])
					i++
				}
			case strings.HasPrefix(a, "--method="):
				method = strings.ToUpper(strings.TrimPrefix(a, "--method="))
			case a == "-H" || a == "--header" || a == "-f" || a == "-F" || a == "--field" || a == "--raw-field" || a == "--hostname" || a == "-q" || a == "--jq":
				i++
			case target == "" && !strings.HasPrefix(a, "-"):
				target = "https://api/" + strings.TrimPrefix(a, "/")
			}
		}
	case "http", "https", "xh":
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			switch {
			case method == "" && strings.ToUpper(a) == a && len(a) <= 7:
				method = a
			case target == "":
				target = a
			}
		}
		if method == "" {
			method = "GET"
		}
	default:
		return "", nil
	}
	if target == "" {
		return "", nil
	}
	if !strings.Contains(target, "://") {
		target = "http://" + target
	}
	u, err := url.Parse(target)
	if err != nil {
		return "", nil
	}
	return method, u
}
