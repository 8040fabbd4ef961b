package shell

import (
	"reflect"
	"strings"
	"testing"
)

func litWords(s string) []Word {
	var out []Word
	for _, f := range strings.Fields(s) {
		out = append(out, Word{Raw: f, Values: []string{f}})
	}
	return out
}

func TestParseMake(t *testing.T) {
	for _, c := range []struct {
		args    string
		files   []string
		dir     string
		targets []string
		dry     bool
	}{
		{"-f build.mk clean", []string{"build.mk"}, "", []string{"clean"}, false},
		{"-fbuild.mk clean", []string{"build.mk"}, "", []string{"clean"}, false},
		{"-sf build.mk", []string{"build.mk"}, "", nil, false},
		{"-ksfbuild.mk", []string{"build.mk"}, "", nil, false},
		{"--fil=build.mk x", []string{"build.mk"}, "", []string{"x"}, false},
		{"--makef build.mk", []string{"build.mk"}, "", nil, false},
		{"-f a.mk -f b.mk", []string{"a.mk", "b.mk"}, "", nil, false},
		{"-Csub -j4 all", nil, "sub", []string{"all"}, false},
		{"-j 4 -C sub all", nil, "sub", []string{"all"}, false},
		{"--di=sub -n", nil, "sub", nil, true},
		{"-snf x.mk", []string{"x.mk"}, "", nil, true},
		{"--d=sub all", nil, "", []string{"all"}, false}, // ambiguous: make refuses it
		{"CC=gcc all", nil, "", []string{"all"}, false},
		{"-- -f", nil, "", []string{"-f"}, false},
	} {
		o := parseMake(litWords(c.args))
		if !reflect.DeepEqual(o.files, c.files) || o.dir != c.dir || !reflect.DeepEqual(o.targets, c.targets) || o.dry != c.dry {
			t.Errorf("parseMake(%q) = files %q dir %q targets %q dry %v; want %q %q %q %v", c.args, o.files, o.dir, o.targets, o.dry, c.files, c.dir, c.targets, c.dry)
		}
	}
}

func TestParseLibOpts(t *testing.T) {
	for _, c := range []struct {
		lang, args string
		libs, dirs []string
	}{
		{"ruby", "-r./x.rb -e 1", []string{"./x.rb"}, nil},
		{"ruby", "-I src -ry -e 1", []string{"y"}, []string{"src"}},
		{"ruby", "-Isrc -r y x.rb -r z", []string{"y"}, []string{"src"}},
		{"ruby", "-wr ./y -e 1", []string{"./y"}, nil},
		{"ruby", "-e -rfoo", nil, nil},
		{"ruby", "-i.bak -r x", []string{"x"}, nil},
		{"perl", "-Isrc -MY -e 1", []string{"Y"}, []string{"src"}},
		{"perl", "-I src -MY=x -mZ", []string{"Y=x", "Z"}, []string{"src"}},
		{"perl", "-wMstrict -le 1", []string{"strict"}, nil},
		{"perl", "-e -MY", nil, nil},
		{"perl", "-pi -e s/a/b/ -MY", []string{"Y"}, nil}, // options go on after the code
		{"perl", "x.pl -MY", nil, nil},
	} {
		o := parseLibOpts(c.lang, strings.Fields(c.args))
		if !reflect.DeepEqual(o.libs, c.libs) || !reflect.DeepEqual(o.dirs, c.dirs) {
			t.Errorf("parseLibOpts(%s, %q) = %q %q; want %q %q", c.lang, c.args, o.libs, o.dirs, c.libs, c.dirs)
		}
	}
}

// FuzzOptParsers feeds make's and the interpreters' option readers
// command lines from outside: neither may panic.
func FuzzOptParsers(f *testing.F) {
	for _, s := range []string{"-sfbuild.mk clean", "--fil=x -Cd -j", "-Ilib -MY -e 1", "-r./x -I", "-E", "--", "-f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parseMake(litWords(s))
		parseLibOpts("ruby", strings.Fields(s))
		parseLibOpts("perl", strings.Fields(s))
	})
}
