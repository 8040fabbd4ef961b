package tamper

import "testing"

func TestFlipped(t *testing.T) {
	tests := []struct {
		name, before, after string
		want                bool
	}{
		{"python ==", "assert total() == 6\n", "assert total() != 6\n", true},
		{"python is None", "assert f() is None\n", "assert f() is not None\n", true},
		{"python assert not", "assert order.paid\n", "assert not order.paid\n", true},
		{"jest toBe", "expect(f()).toBe(6)\n", "expect(f()).not.toBe(6)\n", true},
		{"go condition", "if got != 6 {\n\tt.Errorf(\"got %d\", got)\n}\n", "if got == 6 {\n\tt.Errorf(\"got %d\", got)\n}\n", true},
		{"go condition of no check", "if err != nil {\n\tdefer f.Close()\n}\n", "if err == nil {\n\tdefer f.Close()\n}\n", false},
		{"literals only", "assert 5 == 5\n", "assert 5 != 5\n", false},
		{"literal strings only", "expect('a').toBe('a')\n", "expect('a').not.toBe('a')\n", false},
		{"another value", "assert total() == 6\n", "assert total() != 5\n", false},
		{"operands swapped", "assert total() == 6\n", "assert 6 == total()\n", false},
		{"unchanged", "assert total() == 6\n", "assert total() == 6\n", false},
	}
	for _, tt := range tests {
		if got := flipped(tt.before, tt.after) != ""; got != tt.want {
			t.Errorf("%s: flipped = %v, want %v", tt.name, got, tt.want)
		}
	}
}
