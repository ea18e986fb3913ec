// Package suggest finds the name a typo most likely meant.
package suggest

import "github.com/xrash/smetrics"

// near is the least Jaro-Winkler similarity (0 to 1) at which a candidate
// counts as a likely typo's target: "captur" and "capture", "comand" and
// "command" pass; "zzz" and "ls" do not.
const near = 0.85

// Closest returns the candidate nearest to s by Jaro-Winkler similarity
// (the measure urfave/cli suggests with), or "" when none is near enough
// to be a likely typo. The first of equally near candidates wins.
func Closest(s string, candidates []string) string {
	best, score := "", near
	for _, c := range candidates {
		if d := smetrics.JaroWinkler(s, c, 0.7, 4); d > score || d == score && best == "" {
			best, score = c, d
		}
	}
	return best
}
