package install

// RecordPath returns the file where install records what it added to the
// settings file settings: ralph-hooks.json beside it, or where agent a
// keeps it (nil: Claude Code).
func RecordPath(a *Agent, settings string) string {
	if a != nil {
		return a.record(settings)
	}
	return manifestPath(settings)
}
