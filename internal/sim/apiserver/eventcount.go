package apiserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/fnv1a"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"k8s.io/apimachinery/pkg/types"
)

// Counted Events (issue 26 §2). An Event request that nothing can see is
// not built: it costs the correlator's bookkeeping (eventcorrelate.go) and
// what the pipeline would have counted, and nothing else.
//
// When. countEvent decides when the request reaches the API server, where
// the pipeline would start (handle), and counts it only if all of these
// hold; otherwise the request is built and handled as any other:
//   - the recorder keeps no step now (Recorder.Keeping false: past the
//     step limit, or --summary's negative limit), so no step, -v line or
//     story shows the request;
//   - nothing else reads the Event: no OnEvent hook (Config.OnCommit:
//     TestTraceObjects, the task and oracle recordings), no write log
//     (Config.LogWrites: the oracle's comparison), and no kubectl-style
//     loud client. Stored Events are never in the registry (put keeps only
//     a hash of the key), so sim.Cluster.Objects, the state log (OnCommit,
//     stateview, --at) and the watches never see one either way;
//   - the pipeline would accept it, decided from what the request would
//     meet: RBAC allows it (authorize), and for a create the namespace
//     exists (NamespaceLifecycle), no admission webhook matches, the name
//     is a valid path segment (the Event's name rule: no "/" or "%"; the
//     namespace was validated when it was created), and no Event has the
//     key; for a PATCH the Event exists. Defaulting, the built-in mutating
//     plugins and ResourceQuota change nothing on an Event here.
//
// What stays the same. The request's count (sendEvent), the engine events
// it takes (one at the API server, the commit one store latency later, the
// answer one request latency after that: Summary.Events and the order of
// everything else), the steps the recorder counts as dropped (Skip and
// Full, as many as the pipeline offers), the store's revision and, for a
// create, the uid drawn from the seeded random stream at commit, the key's
// hash (eventKeys), and the answer the recorder learns (name, uid,
// creationTimestamp), so a later PATCH built in full, after a Reset, names
// the same Event.
//
// If the recorder keeps steps again (Settle's Reset) while a counted
// request is in flight, its later steps are recorded as the pipeline would
// record them (commitEvent's step).

// Steps the pipeline offers before the store for an Event request from a
// quiet client: the request, authentication and authorization (handle,
// authorize); a PATCH adds its body (call.patch).
const (
	createSteps = 3
	patchSteps  = 4
)

// countEvent counts w at the API server instead of handling it, when no
// one can see it; false when it must be built and handled.
func (s *Server) countEvent(w *eventWrite) bool {
	c := w.c
	if s.BuildEvents || s.rec.Keeping() || s.LogWrites || s.OnEvent != nil || c.Loud {
		return false
	}
	if !s.eventAuthorized(w) {
		return false
	}
	key := w.keyHash()
	_, exists := s.eventKeys[key]
	steps := createSteps
	if w.verb == "patch" {
		if !exists {
			return false
		}
		steps = patchSteps
	} else if exists || !s.acceptsEvent(w) {
		return false
	}
	s.rec.Skip(steps)
	s.commitEvent(w, key)
	return true
}

// eventAuthz is one client's RBAC answer for an Event verb (eventAuthorized).
type eventAuthz struct {
	known, ok bool
	user      string
	groups    int
	res       *eventRes
}

// eventAuthorized is authorize's answer for w, asked once per client,
// verb and Event API: the RBAC rules are the bootstrap ones, never changed
// (bootstrapRBAC), and so is a client's identity (checked all the same).
func (s *Server) eventAuthorized(w *eventWrite) bool {
	c := w.c
	a := &c.corr.authz[0]
	if w.verb == "patch" {
		a = &c.corr.authz[1]
	}
	if a.known && a.res == w.res && a.user == c.ID.User && a.groups == len(c.ID.Groups) {
		return a.ok
	}
	ok, _ := s.rbac.authorize(c.ID, w.verb, w.res.Group, w.res.Plural)
	*a = eventAuthz{known: true, ok: ok, user: c.ID.User, groups: len(c.ID.Groups), res: w.res}
	return ok
}

// acceptsEvent reports whether admission and validation would let the
// create of w through unchanged (see above), asking what the pipeline
// asks: NamespaceLifecycle's namespaceExists and the webhooks' anyWebhook.
// The name's "." and hex digits are valid in a path segment, so only the
// object's name is checked.
func (s *Server) acceptsEvent(w *eventWrite) bool {
	if !s.namespaceExists(w.ns) || strings.ContainsAny(w.obj, "/%") {
		return false
	}
	if len(s.Webhooks) > 0 {
		k := &call{c: w.c, req: request{verb: "create", res: w.res.Resource, ns: w.ns, name: w.name()}}
		if k.anyWebhook(true) || k.anyWebhook(false) {
			return false
		}
	}
	return true
}

// name is the Event's name.
func (w *eventWrite) name() string { return eventName(w.obj, w.nano) }

// keyHash is hashKey(Key(res, ns, name)) without writing the key out.
func (w *eventWrite) keyHash() uint64 {
	h := fnv1a.Offset.Str(w.res.keyPrefix).Str(w.ns).Byte('/').Str(w.obj).Byte('.')
	var buf [16]byte
	return uint64(h.Bytes(strconv.AppendInt(buf[:0], w.nano, 16)))
}

// commitEvent is commit for a counted Event: one store latency later the
// write takes the next revision (and a create its uid, commitStage), then
// one request latency later the recorder has its answer (answerStage).
func (s *Server) commitEvent(w *eventWrite, key uint64) {
	w.key, w.stage = key, stageCommit
	s.eng.After(StoreLatency, w.run)
}

func (s *Server) commitStage(w *eventWrite) {
	w.stage = stageAnswer
	// One map operation: adding a key the set has leaves its size.
	n := len(s.eventKeys)
	s.eventKeys[w.key] = struct{}{}
	if len(s.eventKeys) == n && w.verb == "create" {
		// Created meanwhile: AlreadyExists, as commit's build answers.
		w.st = &Status{Code: http.StatusConflict, Reason: "AlreadyExists",
			Message: fmt.Sprintf("%s %q already exists", qualifiedPlural(w.res.Resource), w.name())}
		s.eng.After(RequestLatency, w.run)
		return
	}
	s.rev++
	if w.verb == "create" {
		w.ans = eventAnswer{nano: w.nano, uid: eventUID{d: s.drawUID()}, created: TimeAt(s.eng.Now()).Unix()}
	}
	if s.first == 0 {
		s.first = s.rev
	}
	if !s.rec.Full() {
		s.eventStep(w, "etcd.put", "key", Key(w.res.Resource, w.ns, w.name()), "rev", s.rev)
	}
	w.rev = s.rev
	s.eng.After(RequestLatency, w.run)
}

func (s *Server) answerStage(w *eventWrite) {
	if st := w.st; st != nil {
		s.eventStep(w, "apiserver.reject", "status", st.StatusLine(), "message", st.Message)
		if w.done != nil {
			w.done.eventAnswered(eventAnswer{}, st)
		}
		w.body.release()
		return
	}
	if !s.rec.Full() {
		code, kind := http.StatusOK, trace.KindAPIServerUpdated
		if w.verb == "create" {
			code, kind = http.StatusCreated, trace.KindAPIServerResponse
		}
		s.eventStep(w, kind, "status", fmt.Sprintf("%d %s", code, http.StatusText(code)), "rv", strconv.FormatInt(w.rev, 10), "kind", w.res.Kind)
	}
	if w.done != nil {
		w.done.eventAnswered(w.ans, nil)
	}
	w.body.release()
}

// eventStep records a pipeline step of a counted Event as call.step would
// (verbose, in the client's phase), or counts it.
func (s *Server) eventStep(w *eventWrite, kind trace.Kind, fields ...any) {
	if s.rec.Full() {
		return
	}
	s.rec.Add(trace.Step{Phase: w.c.Phase, Actor: "kube-apiserver", Kind: kind, Verbose: true,
		Object: w.res.Resource.Plural + "/" + w.ns + "/" + w.name(), Fields: trace.F(fields...)})
}

// uidDraw is what stamp draws from the seeded stream for a new object's
// uid, packed (32+16+16 and 12+48 bits) and kept as numbers until someone
// reads the uid; hi is never 0 (the variant bits, 0x8000).
type uidDraw struct{ hi, lo uint64 }

// drawUID draws a uid (stamp's draws, in its order).
func (s *Server) drawUID() uidDraw {
	r := s.eng.Rand()
	a, b, c, d, e := r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, 0x8000|r.Uint32()&0x3fff, r.Uint64()&0xffffffffffff
	return uidDraw{hi: uint64(a)<<32 | uint64(b)<<16 | uint64(d), lo: uint64(c)<<48 | e}
}

// String is the uid: deterministic, UUID-shaped, random-looking.
func (u uidDraw) String() string {
	return uuidText(uint32(u.hi>>32), uint32(u.hi>>16&0xffff), uint32(u.lo>>48), uint32(u.hi&0xffff), u.lo&0xffffffffffff)
}

// eventUID is a stored Event's uid as its create answered it: the string
// (built in full) or the draw (counted), written out only when read.
type eventUID struct {
	s types.UID
	d uidDraw
}

func (u eventUID) get() types.UID {
	if u.s == "" && u.d.hi != 0 {
		return types.UID(u.d.String())
	}
	return u.s
}

// uuidText is fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a, b, c, d, e)
// for values that fit their widths, written into one string (no boxed
// arguments).
func uuidText(a, b, c, d uint32, e uint64) string {
	var buf [36]byte
	hexInto(buf[0:8], uint64(a))
	buf[8] = '-'
	hexInto(buf[9:13], uint64(b))
	buf[13], buf[14] = '-', '4'
	hexInto(buf[15:18], uint64(c))
	buf[18] = '-'
	hexInto(buf[19:23], uint64(d))
	buf[23] = '-'
	hexInto(buf[24:36], e)
	return string(buf[:])
}

// hexInto writes v's low len(dst) hex digits into dst, zero-padded.
func hexInto(dst []byte, v uint64) {
	const digits = "0123456789abcdef"
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = digits[v&0xf]
		v >>= 4
	}
}

// logUID is an eventUID as the logger's LRU keeps it, without a pointer:
// the draw, which a uid stamp wrote is read back into (parseUID), or else
// (a uid that is not a draw's text) its place in the correlator's uids, from 1.
type logUID struct {
	d     uidDraw
	other int32
}

// logUID is u as the logger keeps it.
func (c *correlator) logUID(u eventUID) logUID {
	if u.s == "" {
		return logUID{d: u.d}
	}
	if d, ok := parseUID(string(u.s)); ok {
		return logUID{d: d}
	}
	c.uids = append(c.uids, u.s)
	return logUID{other: int32(len(c.uids))}
}

// eventUID is the uid u keeps (eventUID.get reads the same text).
func (c *correlator) eventUID(u logUID) eventUID {
	if u.other > 0 {
		return eventUID{s: c.uids[u.other-1]}
	}
	return eventUID{d: u.d}
}

// parseUID reads uuidText's output back into the draw String writes it
// from: ok only for exactly that text (lower-case hex, the fixed "4"),
// with a draw that is not zero.
func parseUID(s string) (uidDraw, bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[14] != '4' || s[18] != '-' || s[23] != '-' {
		return uidDraw{}, false
	}
	var v [5]uint64
	for i, f := range [5][2]int{{0, 8}, {9, 13}, {15, 18}, {19, 23}, {24, 36}} {
		for _, ch := range []byte(s[f[0]:f[1]]) {
			switch {
			case ch >= '0' && ch <= '9':
				v[i] = v[i]<<4 | uint64(ch-'0')
			case ch >= 'a' && ch <= 'f':
				v[i] = v[i]<<4 | uint64(ch-'a'+10)
			default:
				return uidDraw{}, false
			}
		}
	}
	d := uidDraw{hi: v[0]<<32 | v[1]<<16 | v[3], lo: v[2]<<48 | v[4]}
	return d, d.hi != 0
}
