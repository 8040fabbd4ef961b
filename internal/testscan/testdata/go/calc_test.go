package calc_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/stretchr/testify/suite"

	"example.com/calc"
)

// A comment mentioning t.Skip() and t.Errorf("x") and func TestNotReal(t *testing.T) counts nothing.

func TestAdd(t *testing.T) {
	got := calc.Add(2, 3)
	if got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    int
		wantErr bool
	}{
		{"simple", "1+2", 3, false},
		{"empty", "", 0, true},
		{"spaces", " 4 * 5 ", 20, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := calc.Parse(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Parse(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Parse(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestDivide(t *testing.T) {
	t.Run("by zero", func(t *testing.T) {
		_, err := calc.Divide(1, 0)
		require.Error(t, err)
		assert.True(t, errors.Is(err, calc.ErrDivideByZero))
	})
	t.Run("exact", func(t *testing.T) {
		got, err := calc.Divide(6, 3)
		require.NoError(t, err)
		assert.Equal(t, 2, got, "6 / 3")
	})
	t.Run("nested", func(t *testing.T) {
		t.Run("deep", func(t *testing.T) {
			assert.Equal(t, 1, 1)
		})
	})
}

func TestSlow(t *testing.T) {
	if testing.Short() {
		t.Skip("slow test in -short mode")
	}
	msg := "t.Fatal(\"in a string\") does not count"
	if !strings.Contains(msg, "count") {
		t.Fatal("no count")
	}
}

func TestBroken(t *testing.T) {
	t.Skip("flaky on CI, see #123")
	if calc.Add(1, 1) != 2 {
		t.Error("1+1")
	}
}

func TestTODO(t *testing.T) {
}

func TestNeverFails(t *testing.T) {
	got := calc.Add(1, 2)
	if false {
		t.Errorf("got %d", got)
	}
	assert.True(t, true)
}

func TestObjectStyle(t *testing.T) {
	a := assert.New(t)
	a.Equal(4, calc.Add(2, 2))
	a.NotNil(calc.New())
}

func checkResult(t *testing.T, got, want int) {
	t.Helper()
	if got != want {
		t.Fatalf("got %d, want %d", got, want)
	}
}

func TestWithHelper(t *testing.T) {
	checkResult(t, calc.Add(1, 1), 2)
}

func BenchmarkAdd(b *testing.B) {
	for i := 0; i < b.N; i++ {
		calc.Add(i, i)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("1+1")
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := calc.Parse(s); err != nil && err.Error() == "" {
			t.Error("empty error")
		}
	})
}

func ExampleAdd() {
	fmt.Println(calc.Add(1, 2))
	// Output: 3
}

func ExampleDivide() {
	fmt.Println(calc.Divide(1, 1))
}

// Not tests: wrong signature, lower-case after the prefix, a method.
func Testlower(t *testing.T) {}

func TestWrongSig(s string) {}

func testHelperName(t *testing.T) {}

type CalcSuite struct {
	suite.Suite
	c *calc.Calc
}

func (s *CalcSuite) SetupTest() {
	s.c = calc.New()
	s.Require().NotNil(s.c)
}

func (s *CalcSuite) TestMultiply() {
	s.Equal(6, s.c.Multiply(2, 3))
	s.Require().Equal(0, s.c.Multiply(0, 3))
}

func TestCalcSuite(t *testing.T) {
	suite.Run(t, new(CalcSuite))
}

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}
