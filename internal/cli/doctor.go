package cli

import "errors"

func doctor(e *env, args []string) error { return errors.New("doctor: not written yet") }
