package rewrite

import "testing"

// TestBlankCommentsAndStrings: comments and string contents become
// spaces, line breaks and code stay, and an f-string's fields are code.
func TestBlankCommentsAndStrings(t *testing.T) {
	cases := []struct{ in, want string }{
		{"x = Net()  # Net\n", "x = Net()       \n"},
		{`run = init(project="Net")`, `run = init(project="   ")`},
		{"\"\"\"The Net\nmodel.\"\"\"\nNet2()\n", "\"\"\"       \n      \"\"\"\nNet2()\n"},
		{`s = 'it\'s Net'` + "\nNet()", `s = '         '` + "\nNet()"},
		{`print(f"{Net()}")`, `print(f"{Net()}")`},
		{`p = r"C:\dir" + Net`, `p = r"      " + Net`},
		{"open = 'unterminated\nNet()", "open = '            \nNet()"},
	}
	for _, c := range cases {
		if got := string(blankCommentsAndStrings([]byte(c.in))); got != c.want {
			t.Errorf("blankCommentsAndStrings(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
