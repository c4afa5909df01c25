package cmd

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/readcap"
)

// Limits of --endpoints-file: the documented large-cluster limit of
// endpoints (150,000, as for --services), and 8 MiB, room for that many
// IPv6 endpoints with their ports and nodes.
const (
	maxEndpointsFileBytes = 8 << 20
	maxFileEndpoints      = 150_000
)

// endpointEntry is one endpoint as given, and where (a line of
// --endpoints-file, "" for --endpoints) for errors.
type endpointEntry struct{ text, where string }

// endpointsFile reads --endpoints-file: one endpoint a line, as one item of
// --endpoints (ip[:port][@node], IPv6 as [ip]:port); blank lines and lines
// starting with # are skipped, spaces around an entry ignored. "-" reads
// standard input. 10,000 endpoints on the command line exceed the
// argument limit (ARG_MAX); a file has no such limit.
func (o *DNATOptions) endpointsFile() ([]endpointEntry, error) {
	name := o.EndpointsFile
	var data []byte
	var err error
	if name == "-" {
		data, err = readcap.ReadAll("-", o.IO.In, maxEndpointsFileBytes, "--endpoints-file")
	} else {
		data, err = readcap.ReadFile(name, maxEndpointsFileBytes, "--endpoints-file")
	}
	if err != nil {
		return nil, exitcode.Inputf("--endpoints-file: %v", err)
	}
	var out []endpointEntry
	for i, line := range bytes.Split(data, []byte("\n")) {
		text := strings.TrimSpace(string(line))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		where := name + ":" + strconv.Itoa(i+1)
		if strings.Contains(text, ",") {
			return nil, exitcode.Inputf("%s: invalid endpoint %q: one endpoint a line, no commas", where, text)
		}
		if len(out) == maxFileEndpoints {
			return nil, exitcode.Inputf("%s: more than %d endpoints (the large-cluster limit)", where, maxFileEndpoints)
		}
		out = append(out, endpointEntry{text, where})
	}
	return out, nil
}

// endpointList is the endpoints given by --endpoints or --endpoints-file.
func (o *DNATOptions) endpointList() ([]endpointEntry, error) {
	if o.Changed["endpoints-file"] {
		if len(o.Files) > 0 {
			return nil, exitcode.Inputf("--endpoints-file cannot be combined with -f: the Service comes from the manifest")
		}
		if o.Changed["endpoints"] {
			return nil, exitcode.Inputf("--endpoints and --endpoints-file cannot be combined: give the endpoints one way")
		}
		return o.endpointsFile()
	}
	var out []endpointEntry
	if strings.TrimSpace(o.Endpoints) != "" {
		for _, s := range strings.Split(o.Endpoints, ",") {
			out = append(out, endpointEntry{text: s})
		}
	}
	return out, nil
}
