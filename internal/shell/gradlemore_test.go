package shell

import (
	"strings"
	"testing"
)

// TestGradleMore checks what Gradle and Maven run from the project's files
// beyond the build scripts' exec and delete: the commands read, and the
// runs that ask (opaque).
func TestGradleMore(t *testing.T) {
	files := map[string]string{
		"/p/.git/HEAD":                                  "ref: refs/heads/main\n",
		"/p/g/settings.gradle":                          "rootProject.name = 'x'\nincludeBuild('../inc')\n",
		"/p/g/build.gradle":                             "ant.delete(dir: 'a1')\nant.exec(executable: 'rm') {\n  arg(value: '-f')\n  arg(line: 'a2 a3')\n}\n['rm', 'a4'].execute()\nnew File(rootDir, 'a5').deleteDir()\nfile('a6').text = 'x'\nFiles.deleteIfExists(Paths.get('a7'))\ntask s(type: Sync) { from 'x'; into 'a8' }\nfile('r').text.trim()\nant.move(file: 'a9', tofile: 'b1')\n",
		"/p/g/buildSrc/src/main/kotlin/P.kt":            "fun f() { File(\"b2\").deleteRecursively() }\n",
		"/p/inc/build.gradle.kts":                       "rootDir.resolve(\"b3\").deleteRecursively()\n",
		"/p/inc/src/main/java/X.java":                   "class X { static { new File(\"b4\").delete(); } }\n",
		"/p/g/gh/init.d/i.gradle":                       "'rm -rf b5'.execute()\n",
		"/p/g/sub/build.gradle":                         "apply from: '../conf/x.txt'\napply from: 'https://example.com/x.gradle'\n",
		"/p/g/conf/x.txt":                               "'rm -rf b6'.execute()\n",
		"/p/g/gradle/wrapper/gradle-wrapper.properties": "distributionUrl=file\\:../d.zip\n",
		"/p/m/pom.xml":                                  "<project><argLine>-Xmx2m \"-XX:OnError=rm -rf c1\"</argLine><jvm>${java.home}/bin/java</jvm><script><![CDATA[\n\"rm -rf c2\".execute()\n]]></script><source>src/main/groovy</source></project>\n",
		"/p/m/.mvn/wrapper/maven-wrapper.properties":    "wrapperUrl=https://repo/x.jar\ndistributionUrl=../m.zip\n",
	}
	for _, tc := range []struct {
		src, dir string
		want     []string
	}{
		{"GRADLE_USER_HOME=gh gradle build", "/p/g", []string{
			"rm -r -f a1 [via gradle]", "rm -f a2 a3 [via gradle]",
			"rm a4 [via gradle]", "rm -r -f /p/g/a5 [via gradle]",
			"tee a6 [via gradle]", "rm -r -f a7 [via gradle]",
			"rm -r -f a8 [via gradle]", "rm -r -f a9 [via gradle]",
			"tee b1 [via gradle]",
			"rm -r -f b2 [via gradle]",
			"rm -r -f /p/g/b3 [via gradle]",
			"rm -r -f b4 [via gradle]",
			"rm -rf b5 [via gradle]", "rm -rf b6 [via gradle]",
			"gradle build",
		}},
		{"mvn -q test", "/p/m", []string{"rm -rf c1 [via mvn, surefire argLine, java -XX:OnError]",
			"rm -rf c2 [via mvn, groovy]", "mvn -q test"}},
	} {
		checkRuns(t, files, tc.src, tc.dir, tc.want)
	}
	for _, tc := range []struct {
		src, dir, want string
	}{
		{"./gradlew build", "/p/g", "distributionUrl=file:../d.zip"},
		{"./mvnw test", "/p/m", "distributionUrl=../m.zip"},
		{"gradle -I $(mktemp) build", "/p/g", "computed init script"},
		{"GRADLE_USER_HOME=$(cat f) gradle build", "/p/g", "$GRADLE_USER_HOME computed"},
	} {
		a := toolAnalyzer(files).Analyze(tc.src, tc.dir)
		if !strings.Contains(strings.Join(a.Opaque, "\n"), tc.want) {
			t.Errorf("Analyze(%q).Opaque = %q, want one naming %q", tc.src, a.Opaque, tc.want)
		}
	}
	for _, src := range []string{"gradle build", "mvn test"} {
		if a := toolAnalyzer(files).Analyze(src, "/p/g"); len(a.Opaque) > 0 {
			t.Errorf("Analyze(%q).Opaque = %q, want none (no wrapper)", src, a.Opaque)
		}
	}
}

func FuzzGradleMore(f *testing.F) {
	f.Add("ant.exec(executable: 'rm') {\n arg(line: '-rf x')\n}\n['a'].execute()\nsync { into 'y' }", "<argLine>-XX:OnError=x</argLine><jvm>j</jvm><script>;</script>", "distributionUrl=file:x")
	f.Add("new File(rootDir, '').deleteDir() fileTree('x').each { it.delete() } ('a' as File) <<", "<script><![CDATA[", "distributionUrl")
	f.Fuzz(func(t *testing.T, gradle, pom, props string) {
		if len(gradle)+len(pom)+len(props) > 8192 {
			return
		}
		files := map[string]string{
			"/p/.git/HEAD": "ref: refs/heads/main\n", "/p/settings.gradle": gradle, "/p/build.gradle": gradle,
			"/p/buildSrc/src/main/groovy/A.groovy": gradle, "/p/gh/init.d/a.gradle": gradle, "/p/pom.xml": pom,
			"/p/gradle/wrapper/gradle-wrapper.properties": props, "/p/.mvn/wrapper/maven-wrapper.properties": props,
		}
		for _, src := range []string{"./gradlew build", "GRADLE_USER_HOME=gh gradle -I gh/init.d/a.gradle test", "./mvnw test"} {
			checkAnalysis(t, src, toolAnalyzer(files).Analyze(src, "/p"))
		}
	})
}
