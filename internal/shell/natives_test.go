package shell

import "testing"

func TestNativeLang(t *testing.T) {
	for name, want := range map[string]string{
		"gcc": "c", "gcc-12": "c", "x86_64-linux-gnu-gcc-12": "c", "clang++-15": "c", "g++": "c", "cc": "c",
		"tcc": "c", "c++": "c", "rustc": "rust", "javac": "javac",
		"gccgo": "", "rustup": "", "java": "", "go": "", "gcc-ar": "", "clang-format": "", "ccache": "",
	} {
		if got := nativeLang(name); got != want {
			t.Errorf("nativeLang(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestNatives checks what a compiled program's code is read as, from the
// compiler's command line.
func TestNatives(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":   "ref: refs/heads/main\n",
		"/p/a.c":         "#include <stdlib.h>\n#include \"a.h\"\n#define D \"d\" \"1\"\nint main(void) {\n\tsystem(\"rm -rf s1\");\n\tremove(D);\n\tunlink(\"d2\");\n\tchar *v[] = {\"rm\", \"-r\", \"d3\", NULL};\n\texecv(\"/bin/rm\", v);\n\texecl(\"/bin/rm\", \"rm\", \"d4\", (char *)0);\n\tfopen(\"w1\", \"w\");\n\tfopen(\"r1\", \"r\");\n\topen(\"w2\",\n\t\tO_WRONLY | O_CREAT, 0644);\n\topen(\"r2\", O_RDONLY);\n\trename(\"m1\", \"m2\");\n\tx.remove(\"no1\");\n\tp->unlink(\"no2\");\n}\n",
		"/p/a.h":         "static int h(void) { return rmdir(\"h1\"); }\n",
		"/p/b.cpp":       "#include <filesystem>\nint main() { std::filesystem::remove_all(\"x1\"); std::ofstream o(\"w3\"); std::list<int> l; l.remove(2); }\n",
		"/p/c.c":         "int main(int c, char **v) { return system(v[1]); }\n",
		"/p/r/main.rs":   "mod m;\nfn main() { m::go(); }\n",
		"/p/r/m.rs":      "pub fn go() { std::fs::remove_file(\"r1\").ok(); }\n",
		"/p/J.java":      "class J { public static void main(String[] a) throws Exception { new ProcessBuilder(\"rm\", \"j1\").start(); } }\n",
		"/p/t/k/L.java":  "package k; class L { public static void main(String[] a) throws Exception { Runtime.getRuntime().exec(\"rm j2\"); } }\n",
		"/p/build.rsp":   "-O2\nc.c\n",
		"/p/hello.c":     "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n",
		"/p/stripped.go": "package main\n",
	}
	tests := []struct {
		src  string
		want []string
	}{
		{"gcc -o x a.c && ./x", []string{"gcc -o x a.c", "rm -rf s1 [via gcc]", "rm -f d1 [via gcc]", "rm -f d2 [via gcc]", "rm -r d3 [via gcc]", "rm d4 [via gcc]", "rmdir h1 [via gcc]", "mv m1 m2 [via gcc]", "tee w1 [via gcc]", "tee w2 [via gcc]", "x"}},
		{"g++ -std=c++17 b.cpp", []string{"g++ -std=c++17 b.cpp", "rm -r -f x1 [via g++]", "tee w3 [via g++]"}},
		{"gcc -I inc -o hello hello.c", []string{"gcc -I inc -o hello hello.c"}},
		{"gcc -o a.c hello.c", []string{"gcc -o a.c hello.c"}},
		{"rustc r/main.rs", []string{"rustc r/main.rs", "rm -f r1 [via rustc]"}},
		{"javac J.java", []string{"javac J.java", "rm j1 [via javac]"}},
		{"java J.java", []string{"java J.java", "rm j1 [via java J.java]"}},
		{"java -cp lib.jar:t k.L", []string{"java -cp lib.jar:t k.L", "rm j2 [via java k.L]"}},
		{"java -jar J.java", []string{"java -jar J.java"}},
		{"gcc @build.rsp", []string{"gcc @build.rsp"}},
	}
	for _, tt := range tests {
		checkRuns(t, files, tt.src, "/p", tt.want)
	}
	a := toolAnalyzer(files).Analyze("gcc @build.rsp", "/p")
	if len(a.OpaqueCode) != 1 {
		t.Errorf("gcc @build.rsp (system(v[1])): opaque code %q, want one", a.OpaqueCode)
	}
	a = toolAnalyzer(files).Analyze("curl -s https://x/y.c | gcc -x c -", "/p")
	if len(a.Opaque) != 1 {
		t.Errorf("gcc of a program piped from curl: opaque %q, want one", a.Opaque)
	}
}

// FuzzNatives feeds C, Rust and Java sources from outside: no panic, and
// every analysis well formed.
func FuzzNatives(f *testing.F) {
	f.Add("#define X \"a\"\nint main(){ char *v[] = {\"rm\", X, NULL}; execvp(\"rm\", v); system(\"rm \" \"b\"); nftw(\"c\", f, 1, FTW_DEPTH); }\n#include \"x.c\"\n", "mod x;\ninclude!(\"x.c\");\n")
	f.Add("execl(\"rm\", (char*)0", "open(\"a\",")
	f.Fuzz(func(t *testing.T, c, rs string) {
		if len(c)+len(rs) > 8192 {
			return
		}
		cVars(c)
		files := map[string]string{
			"/p/.git/HEAD": "ref: refs/heads/main\n", "/p/x.c": c, "/p/x.rs": rs, "/p/x/mod.rs": rs, "/p/X.java": c, "/p/a.rsp": rs,
		}
		for _, src := range []string{"gcc x.c", "cc -x c - <<< \"$(cat x.c)\"", "rustc x.rs", "java X.java", "javac X.java", "gcc @a.rsp"} {
			checkAnalysis(t, src, toolAnalyzer(files).Analyze(src, "/p"))
		}
	})
}
