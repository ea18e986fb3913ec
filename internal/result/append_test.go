package result

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tmx-sh/tmx/client"
)

// pieces are what random strings are made of: text encoding/json escapes
// in each of its ways, and text it leaves alone.
var pieces = []string{"", "a", "main", "%3", "$0", "@1", " ", `"`, `\`, "/", "<>&", "\x00", "\x01", "\x1f", "\b", "\f", "\n", "\r", "\t",
	"\x7f", "é", "日本", "\u2028", "\u2029", "\xff", "\xe2\x80", "\xed\xa0\x80", "🙂", "#{pane_id}", "~tmx", "\u00a0"}

// fill sets every field v holds to a random value: strings from pieces,
// numbers over their whole range and near 0, nil and non-nil pointers and
// slices.
func fill(r *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		var b []byte
		for n := r.IntN(4); n > 0; n-- {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		v.SetString(string(b))
	case reflect.Int, reflect.Int64:
		switch r.IntN(3) {
		case 0:
			v.SetInt(int64(r.IntN(200) - 100))
		case 1:
			v.SetInt(int64(r.Uint64()))
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Pointer:
		if r.IntN(2) == 1 {
			v.Set(reflect.New(v.Type().Elem()))
			fill(r, v.Elem())
		}
	case reflect.Slice:
		if n := r.IntN(4) - 1; n >= 0 {
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := range n {
				fill(r, v.Index(i))
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(r, v.Field(i))
		}
	default:
		panic("fill: no case for " + v.Kind().String())
	}
}

// The documents Marshal writes itself come out byte for byte as
// encoding/json writes them, for random values of every field, as values
// and as pointers.
func TestAppendersMatchEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, doc := range []any{&Panes{}, &PaneDetail{}, &Capture{}} {
		for range 2000 {
			v := reflect.New(reflect.TypeOf(doc).Elem())
			fill(r, v.Elem())
			for _, d := range []any{v.Interface(), v.Elem().Interface()} {
				got, err := Marshal(d)
				if err != nil {
					t.Fatal(err)
				}
				want, err := marshalReflect(d)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%T:\n got %s\nwant %s", d, got, want)
				}
			}
		}
	}
}

// A document that embeds one of them is not written as that one alone.
func TestAppendersAreNotPromoted(t *testing.T) {
	type wider struct {
		Panes
		Extra int `json:"extra"`
	}
	got, err := Marshal(wider{Panes: Panes{Panes: []client.PaneInfo{}}, Extra: 7})
	if err != nil || !bytes.Contains(got, []byte(`"extra":7`)) {
		t.Fatalf("Marshal(wider) = %s, %v", got, err)
	}
}

func BenchmarkMarshalPanes(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var d Panes
	fill(r, reflect.ValueOf(&d).Elem())
	d.Panes = make([]client.PaneInfo, 20)
	for i := range d.Panes {
		fill(r, reflect.ValueOf(&d.Panes[i]).Elem())
	}
	b.Run("append", func(b *testing.B) {
		for b.Loop() {
			Marshal(d)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			marshalReflect(d)
		}
	})
}

// A nil pointer to one of them is refused as encoding/json refuses it,
// not a panic.
func TestAppendersNilPointer(t *testing.T) {
	for _, d := range []any{(*Panes)(nil), (*PaneDetail)(nil), (*Capture)(nil)} {
		if _, err := Marshal(d); err == nil {
			t.Errorf("Marshal(%T nil) gave no error", d)
		}
	}
}
