package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command line that does not parse may still run in part. Bash reads a
// script (bash -c, eval, a script file) one line at a time: it runs each
// complete command list that ends a line before it reads the next, and it
// runs nothing of a list it cannot finish. So in
//
//	rm -rf src
//	echo 'oops
//
// rm runs, and then Bash stops at the open quote. Checked with bash 5.2
// (bash -n -c and running each form): an open quote, $( , ${ , ( , { ,
// if/for/case without its end, a trailing && or | — the list that holds it
// runs not at all, whatever comes before it on its line.
//
// completeStmts returns the statements the parser finished before the
// error: every list Bash may run is among them; earlierLines drops those
// on the broken line, which Bash reads with it and does not run
// (rm -rf src; echo 'oops deletes nothing).

// completeStmts parses src statement by statement, returning those the
// parser finished and the error that stopped it.
func completeStmts(src string) ([]*syntax.Stmt, error) {
	var done []*syntax.Stmt
	var err error
	// The loop never breaks: Parser.Stmts returns at the error, and the
	// parser then yields once more (mvdan.cc/sh v3.14.1), which panics.
	for s, e := range syntax.NewParser(syntax.Variant(syntax.LangBash)).StmtsSeq(strings.NewReader(src)) {
		switch {
		case err != nil:
		case e != nil:
			err = e
		default:
			done = append(done, s)
		}
	}
	return done, err
}

// earlierLines returns the statements of done that end a line before the
// statement that follows them: those Bash runs before it reads the line
// it cannot finish. A statement followed on its line by ; or & and more
// text (a backslash-newline joins lines) is part of the broken line.
func earlierLines(src string, done []*syntax.Stmt) []*syntax.Stmt {
	for i := len(done); i > 0; i-- {
		if !sameLine(src[done[i-1].End().Offset():]) {
			return done[:i]
		}
	}
	return nil
}

// sameLine reports whether rest, the text after a complete statement,
// continues its line with more of the command line: past blanks, ; and
// & and backslash-newlines, anything but a newline or a comment.
func sameLine(rest string) bool {
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case ' ', '\t', ';', '&':
		case '\\':
			if i+1 < len(rest) && rest[i+1] == '\n' {
				i++
				continue
			}
			return true
		case '\n', '#':
			return false
		default:
			return true
		}
	}
	return false
}

// refusedRest reports whether Bash refuses to run everything of src after
// the complete statements: the parser stopped at the end of the text with
// a quote still open, a quote that begins a word of a command (not one
// inside ${…}, [[ ]], $((…)) or a case pattern, where zsh, the shell some
// agents run commands in, takes a quote otherwise), and nothing in src lets
// Bash read the text otherwise than the parser does. It does not when
//   - the error is anything else: echo $((1+)) fails only when it runs,
//     after the commands before it on its line; an open $( , if or a
//     trailing && is refused by bash too, but is left to the caller;
//   - src holds a here-document (Bash reads its body line by line, and
//     runs it delimited by the end of the text when its word is missing:
//     the parser nests a $( in the body across lines, Bash does not) or a
//     backquote (Bash reads to the next backquote, quotes and all:
//     echo `echo '`; rm -rf src runs rm);
//   - the lines before may define aliases (alias, BASH_ALIASES, shopt,
//     eval, source): an alias can close the quote the parser sees open.
func refusedRest(src string, err error, ran []*Cmd) bool {
	perr, ok := err.(syntax.ParseError)
	if !ok || !perr.Incomplete || !strings.HasPrefix(perr.Text, "reached EOF without closing quote") {
		return false
	}
	if strings.Contains(src, "<<") || strings.Contains(src, "`") {
		return false
	}
	low := strings.ToLower(src)
	for _, w := range []string{"alias", "shopt", "eval", "source"} {
		if strings.Contains(low, w) {
			return false
		}
	}
	for _, c := range ran {
		switch c.Name {
		case ".", "source", "eval", "alias", "shopt", "enable":
			return false
		}
	}
	return wordQuote(src, perr)
}

// wordQuote reports whether the quote perr says is left open begins a
// word of a command, or part of one: closed at the end, src parses, and
// the quote sits in a command's word, an assignment's value or a
// redirection's target, with only commands and lists around it.
func wordQuote(src string, perr syntax.ParseError) bool {
	f, err := parse(src + quoteCloser(perr))
	if err != nil {
		return false
	}
	off := perr.Pos.Offset()
	var stack []syntax.Node
	found, top := false, false
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if found {
			return false
		}
		switch n.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			if n.Pos().Offset() == off {
				found, top = true, true
				for _, a := range stack {
					switch a.(type) {
					case *syntax.File, *syntax.Stmt, *syntax.CallExpr, *syntax.Word, *syntax.BinaryCmd, *syntax.Assign, *syntax.Redirect:
					default:
						top = false
					}
				}
				return false
			}
		}
		stack = append(stack, n)
		return true
	})
	return found && top
}

// quoteCloser is the quote that closes the one perr says is left open.
func quoteCloser(perr syntax.ParseError) string {
	if strings.HasSuffix(perr.Text, "`\"`") {
		return `"`
	}
	return "'"
}

// closedRest returns the statements of the line Bash refuses (those after
// the first ran statements of src), parsed with the open quote closed at
// the end: what the line reads as, though nothing of it runs.
func closedRest(src string, err error, ran int) []*syntax.Stmt {
	perr, ok := err.(syntax.ParseError)
	if !ok {
		return nil
	}
	f, err := parse(src + quoteCloser(perr))
	if err != nil || len(f.Stmts) <= ran {
		return nil
	}
	return f.Stmts[ran:]
}
