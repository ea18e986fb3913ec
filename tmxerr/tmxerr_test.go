package tmxerr

import "testing"

// Every code has a status from the table and a description, and every
// status the codes use is documented.
func TestTable(t *testing.T) {
	documented := map[int]bool{}
	for _, s := range Statuses {
		documented[s.Exit] = true
	}
	for _, i := range All() {
		if i.Doc == "" || !documented[i.Exit] || !Known(i.Code) || i.Code.Exit() != i.Exit {
			t.Errorf("code %s: exit %d, doc %q", i.Code, i.Exit, i.Doc)
		}
	}
	if Code("no_such_code").Exit() != ExitFailure || Known("no_such_code") {
		t.Error("unknown codes must map to ExitFailure and not be known")
	}
}
