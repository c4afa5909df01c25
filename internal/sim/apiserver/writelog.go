package apiserver

import (
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// The write log (Config.LogWrites): every write's answer, as the oracle's
// audit log records it, for internal/oracle's comparison.

// Write is one write request as an audit log at ResponseComplete shows it:
// who, which verb on which resource and subresource, and the answer.
type Write struct {
	Actor, User     string
	Verb            string // create, update, delete
	Group, Resource string
	Subresource     string
	Namespace, Name string
	Code            int
	Object          runtime.Object // the stored object (or the deleted one); nil on failure
	Request         runtime.Object // the request body (create, update); nil for delete and binding
	Failure         string         // the Status message on failure
	At              time.Duration  // virtual time of the answer
}

// logWrite wraps done so that the answer is appended to Writes first.
func (s *Server) logWrite(c *Client, rp *request, done Done) Done {
	r := *rp // the request as it arrived, before the pipeline fills in its namespace and name
	return func(obj runtime.Object, st *Status) {
		w := Write{Actor: c.Actor, User: c.ID.User, Verb: r.verb, Group: r.res.Group, Resource: r.res.Plural,
			Subresource: r.subresource, Namespace: r.ns, Name: r.name, Object: obj, Request: r.obj, At: s.eng.Now()}
		switch {
		case st != nil:
			w.Code, w.Failure = st.Code, st.Message
		case r.verb == "create":
			w.Code = http.StatusCreated
		default:
			w.Code = http.StatusOK
		}
		if m, err := meta.Accessor(obj); obj != nil && err == nil {
			w.Namespace, w.Name = m.GetNamespace(), m.GetName()
			w.Object = obj.DeepCopyObject() // as stored now, whatever happens to it later
		}
		// else a Status answers (pods/eviction): nothing stored, the
		// request names the object
		s.Writes = append(s.Writes, w)
		if done != nil {
			done(obj, st)
		}
	}
}
