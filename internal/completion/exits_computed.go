package completion

// pyComputed are the Python forms that reach an exit by a name computed
// at run time, which no list of exit names matches:
// getattr(shutil.os, "_ex" + "it")(0), vars(os)[n](0),
// __import__("o" + "s"), importlib.import_module, sys.modules[n],
// operator.methodcaller, exec/eval of a built string, __getattribute__,
// __dict__. getattr counts when its name is not a plain string literal
// (a variable, "a" + "b", an f-string, .format, "%"), or its object is a
// module's os (shutil.os, tempfile._os). Honest code adds them rarely;
// one added goes to the human gate once, as the exits do.
const pyComputed = `|\bgetattr\s*\([^,]*,\s*[^"'\s]|\bgetattr\s*\([^,]*,\s*["'][^"']*["']\s*[^\s,)]|\bgetattr\s*\([^,]*\.\s*_?os\b` +
	`|\bvars\s*\(|__dict__|__getattribute__|\b__import__\b|\bimportlib\b|\bsys\s*\.\s*modules\b` +
	`|\b(attrgetter|methodcaller)\b|(^|[^.\w])(exec|eval|compile)\s*\(|[\w)\]]\s*\.\s*_os\b|\b(shutil|subprocess|tempfile|pathlib|glob)\s*\.\s*os\b`

// rbComputed are Ruby's: a method sent by a name that is not a plain
// symbol (send("ex" + "it!"), public_send(name), __send__(:"exit!")),
// method(…) objects, eval and its kin, const_get.
const rbComputed = `|\b(send|public_send|__send__)\s*\(?\s*([^:\s(]|:["'])|\bmethod\s*\(|\b(eval|instance_eval|class_eval|module_eval|instance_exec)\b|\bconst_get\b`
