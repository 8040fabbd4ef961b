// The post-tool-call command is a ralph-hooks hook binary; run it with --help.
//
//go:debug updatemaxprocs=0
package main

import (
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/posttool"
)

func main() { os.Exit(posttool.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
