// The post-iteration-reflect command is a ralph-hooks hook binary; run it with --help.
//
//go:debug updatemaxprocs=0
package main

import (
	"os"

	"github.com/ralph-hooks/ralph-hooks/internal/reflection"
)

func main() { os.Exit(reflection.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
