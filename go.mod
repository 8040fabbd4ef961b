module github.com/ralph-hooks/ralph-hooks

go 1.26.8

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/gofrs/flock v0.13.1
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	github.com/tidwall/gjson v1.20.0
	github.com/tidwall/match v1.1.1
	github.com/tidwall/sjson v1.2.5
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.47.0
	golang.org/x/text v0.14.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/tidwall/pretty v1.2.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)

replace go.yaml.in/yaml/v3 => ./third_party/go.yaml.in/yaml/v3

replace mvdan.cc/sh/v3 => ./third_party/mvdan.cc/sh/v3
