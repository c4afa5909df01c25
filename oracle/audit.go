package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// auditEvent is the part of an audit.k8s.io/v1 Event the recorder reads.
type auditEvent struct {
	Stage string `json:"stage"`
	Verb  string `json:"verb"`
	User  struct {
		Username string `json:"username"`
	} `json:"user"`
	ObjectRef *struct {
		Resource    string `json:"resource"`
		Namespace   string `json:"namespace"`
		Name        string `json:"name"`
		APIGroup    string `json:"apiGroup"`
		Subresource string `json:"subresource"`
	} `json:"objectRef"`
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
	RequestObject  json.RawMessage `json:"requestObject"`
	ResponseObject json.RawMessage `json:"responseObject"`
}

var writeVerbs = map[string]bool{"create": true, "update": true, "patch": true, "delete": true, "deletecollection": true}

// readAudit returns the completed write events after byte offset off and
// the offset of the file's end.
func readAudit(path string, off int64) ([]auditEvent, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, off, err
	}
	defer f.Close()
	if _, err := f.Seek(off, 0); err != nil {
		return nil, off, err
	}
	var out []auditEvent
	r := bufio.NewReaderSize(f, 1<<20)
	pos := off
	for {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 || line[len(line)-1] != '\n' {
			break // a partial last line is read next time
		}
		pos += int64(len(line))
		var ev auditEvent
		if e := json.Unmarshal(bytes.TrimSpace(line), &ev); e != nil {
			return nil, pos, fmt.Errorf("audit log %s: %v", path, e)
		}
		if ev.Stage == "ResponseComplete" && writeVerbs[ev.Verb] && ev.ObjectRef != nil {
			out = append(out, ev)
		}
		if err != nil {
			break
		}
	}
	return out, pos, nil
}
