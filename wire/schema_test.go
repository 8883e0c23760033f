package wire

import (
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/core"
)

// The request schema is defined once, in Go: Request's json tags and the
// fields each entry of operations reads. js/index.d.ts (the Request union,
// Options, Provider, the Skilldex methods) and js/src/facade.js (the
// requests createSkilldex's methods send) restate it for JavaScript; these tests fail when they
// disagree, so that adding an operation or a field cannot skip a layer.

// jsonKeys returns the json tag names of struct type v's fields.
func jsonKeys(v any) []string {
	var keys []string
	rt := reflect.TypeOf(v)
	for i := range rt.NumField() {
		if tag := rt.Field(i).Tag.Get("json"); tag != "" && tag != "-" {
			keys = append(keys, strings.Split(tag, ",")[0])
		}
	}
	slices.Sort(keys)
	return keys
}

// goOps returns each op's request keys, "op" included, sorted.
func goOps() map[string][]string {
	out := map[string][]string{}
	for _, op := range operations {
		name := op.name
		keys := append([]string{"op"}, op.fields...)
		slices.Sort(keys)
		out[name] = keys
	}
	return out
}

// compareOps reports each op whose keys in a JS file differ from the Go
// op table's.
func compareOps(t *testing.T, where string, got map[string][]string) {
	t.Helper()
	want := goOps()
	for op, keys := range want {
		if g, ok := got[op]; !ok {
			t.Errorf("%s: no request for op %s (Go: %q)", where, op, keys)
		} else if !slices.Equal(g, keys) {
			t.Errorf("%s: op %s has keys %q, wire's op table %q", where, op, g, keys)
		}
	}
	for op := range got {
		if _, ok := want[op]; !ok {
			t.Errorf("%s: op %s is not in wire's op table", where, op)
		}
	}
}

func readJS(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../js/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// transportFields are the Request fields that shape how any op's reply
// travels, not what it says (Request.ASCIIReply): no op lists them, the JS
// facade's Request type does not have them (its results are the same with
// them), and wasm/ABI.md lists them as used by "any op".
var transportFields = []string{"asciiReply"}

// TestSchema_goRequest: every Request field is read by some op or is a
// transport field, and every field an op lists is a Request field.
func TestSchema_goRequest(t *testing.T) {
	tags := jsonKeys(Request{})
	read := slices.Clone(transportFields)
	for _, keys := range goOps() {
		read = append(read, keys...)
	}
	slices.Sort(read)
	if read = slices.Compact(read); !slices.Equal(read, tags) {
		t.Errorf("Request's json keys %q, the ops read %q", tags, read)
	}
}

var (
	tsInterface = regexp.MustCompile(`(?ms)^export interface (\w+)(?: extends (\w+))? \{\n(.*?)^\}`)
	tsField     = regexp.MustCompile(`(?m)^  (?:readonly )?(\w+)\??:`)
	tsMethod    = regexp.MustCompile(`(?m)^  (\w+)\(`)
	tsInline    = regexp.MustCompile(`(\w+)\??:`)
	tsOp        = regexp.MustCompile(`op: '(\w+)'`)
	tsAnd       = regexp.MustCompile(`& (\w+)`)
	tsConst     = regexp.MustCompile(`(?m)^export declare const (\w+): Skilldex\['(\w+)'\];`)
)

// dtsInterfaces returns the field names of each interface of index.d.ts,
// inherited ones included.
func dtsInterfaces(src string) map[string][]string {
	own, parent := map[string][]string{}, map[string]string{}
	for _, m := range tsInterface.FindAllStringSubmatch(src, -1) {
		for _, f := range tsField.FindAllStringSubmatch(m[3], -1) {
			own[m[1]] = append(own[m[1]], f[1])
		}
		parent[m[1]] = m[2]
	}
	all := map[string][]string{}
	for name := range own {
		for n := name; n != ""; n = parent[n] {
			all[name] = append(all[name], own[n]...)
		}
	}
	return all
}

// dtsRequests returns each op's keys as index.d.ts's Request union has them.
func dtsRequests(t *testing.T, src string) map[string][]string {
	start := strings.Index(src, "export type Request =")
	if start < 0 {
		t.Fatal("index.d.ts has no Request type")
	}
	union := src[start:]
	union = union[:strings.Index(union, ";\n")]
	ifaces := dtsInterfaces(src)
	out := map[string][]string{}
	for _, member := range strings.Split(union, "\n  | ")[1:] {
		op := tsOp.FindStringSubmatch(member)
		if op == nil {
			t.Fatalf("index.d.ts: a Request member without an op: %s", member)
		}
		inline := member[strings.Index(member, "{"):strings.Index(member, "}")]
		var keys []string
		for _, f := range tsInline.FindAllStringSubmatch(inline, -1) {
			keys = append(keys, f[1])
		}
		for _, and := range tsAnd.FindAllStringSubmatch(member, -1) {
			fields, ok := ifaces[and[1]]
			if !ok {
				t.Fatalf("index.d.ts: Request member %s uses unknown interface %s", op[1], and[1])
			}
			keys = append(keys, fields...)
		}
		slices.Sort(keys)
		out[op[1]] = keys
	}
	return out
}

// TestSchema_indexDTS: the Request union of index.d.ts has the Go ops with
// the Go fields; Options and Provider have core's json keys; every op is a
// Skilldex method and a module-level export.
func TestSchema_indexDTS(t *testing.T) {
	src := readJS(t, "index.d.ts")
	compareOps(t, "index.d.ts Request", dtsRequests(t, src))
	ifaces := dtsInterfaces(src)
	for name, v := range map[string]any{"Options": core.Options{}, "Provider": core.Provider{}} {
		got := slices.Sorted(slices.Values(ifaces[name]))
		want := jsonKeys(v)
		if name == "Options" {
			// S68: trustedProject is the negation of Options.UntrustedProject
			// (whose zero value keeps the default), which has no json key.
			want = slices.Sorted(slices.Values(append(want, "trustedProject")))
		}
		if !slices.Equal(got, want) {
			t.Errorf("index.d.ts %s has %q, core.%s's json keys are %q", name, got, name, want)
		}
	}
	body := src[strings.Index(src, "export interface Skilldex {"):]
	body = body[:strings.Index(body, "\n}")]
	var methods []string
	for _, m := range tsMethod.FindAllStringSubmatch(body, -1) {
		methods = append(methods, m[1])
	}
	exported := map[string]bool{}
	for _, m := range tsConst.FindAllStringSubmatch(src, -1) {
		exported[m[1]] = m[1] == m[2]
	}
	for _, o := range operations {
		op := o.name
		if !slices.Contains(methods, op) {
			t.Errorf("index.d.ts: Skilldex has no method %s", op)
		}
		if !exported[op] {
			t.Errorf("index.d.ts: no `export declare const %s: Skilldex['%s']`", op, op)
		}
	}
}

var (
	jsRun     = regexp.MustCompile(`(?s)run\(\{ op: '(\w+)'(.*?)\}\)`)
	jsLoadCtx = regexp.MustCompile(`\.\.\.\(await withCtx\(\w*\)\)`)
	jsKey     = regexp.MustCompile(`^\s*(\w+)\s*(?::|$)`)
)

// TestSchema_indexJS: the requests the facade's methods send (index.js's
// createSkilldex, made in src/facade.js) carry the Go fields of their op,
// and there is one for every op.
func TestSchema_indexJS(t *testing.T) {
	got := map[string][]string{}
	for _, m := range jsRun.FindAllStringSubmatch(readJS(t, "src/facade.js"), -1) {
		keys := []string{"op"}
		args := m[2]
		if jsLoadCtx.MatchString(args) {
			keys = append(keys, loadContext...)
			args = jsLoadCtx.ReplaceAllString(args, "")
		}
		for _, part := range strings.Split(args, ",") {
			if k := jsKey.FindStringSubmatch(part); k != nil {
				keys = append(keys, k[1])
			} else if strings.TrimSpace(part) != "" {
				t.Fatalf("src/facade.js: cannot read the request field %q of op %s", part, m[1])
			}
		}
		slices.Sort(keys)
		got[m[1]] = keys
	}
	compareOps(t, "src/facade.js", got)
}

var (
	abiField = regexp.MustCompile("(?m)^\\| `(\\w+)` \\| \\w+ \\| ([^|]+) \\|")
	abiOp    = regexp.MustCompile("(?m)^\\| `(\\w+)` \\| S\\d")
	abiName  = regexp.MustCompile("`(\\w+)`")
)

// TestSchema_abiMD: wasm/ABI.md's tables of request fields (with the ops
// using each) and of operations state the Go schema.
func TestSchema_abiMD(t *testing.T) {
	b, err := os.ReadFile("../wasm/ABI.md")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	start := strings.Index(src, "## Requests and replies")
	if start < 0 {
		t.Fatal("ABI.md has no section Requests and replies")
	}
	src = src[start:]
	src = src[:strings.Index(src, "### Error replies")]
	got := map[string][]string{}
	var transport []string
	for _, m := range abiField.FindAllStringSubmatch(src, -1) {
		users := strings.TrimSpace(m[2])
		if users == "any op" {
			transport = append(transport, m[1])
			continue
		}
		for _, o := range operations {
			op := o.name
			var uses bool
			switch users {
			case "all":
				uses = true
			case "ops on discovered skills":
				uses = slices.Contains(o.fields, "cwd")
			default:
				uses = slices.ContainsFunc(abiName.FindAllStringSubmatch(users, -1), func(n []string) bool { return n[1] == op })
			}
			if uses {
				got[op] = append(got[op], m[1])
			}
		}
	}
	var listed []string
	for _, m := range abiOp.FindAllStringSubmatch(src, -1) {
		listed = append(listed, m[1])
		slices.Sort(got[m[1]])
	}
	slices.Sort(listed)
	if want := slices.Sorted(maps.Keys(operationMap(t))); !slices.Equal(listed, want) {
		t.Errorf("ABI.md lists the ops %q, wire's op table has %q", listed, want)
	}
	compareOps(t, "wasm/ABI.md", got)
	if slices.Sort(transport); !slices.Equal(transport, slices.Sorted(slices.Values(transportFields))) {
		t.Errorf("ABI.md lists %q as used by any op, wire's transport fields are %q", transport, transportFields)
	}
}

// operationMap is the op table as a map, each name once.
func operationMap(t *testing.T) map[string]operation {
	t.Helper()
	m := map[string]operation{}
	for _, o := range operations {
		if _, dup := m[o.name]; dup {
			t.Errorf("the op table lists %q twice", o.name)
		}
		m[o.name] = o.operation
	}
	return m
}
