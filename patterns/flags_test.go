package patterns

import "flag"

var updateDocs bool

func init() {
	flag.BoolVar(&updateDocs, "update-docs", false, "rewrite RULES.md and the README rule table")
}
