package explain

import (
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/etcd"
)

// BuildSpace turns the space story (quorum --quota-backend-bytes) into its
// report: the quota and what is modeled, the story phase by phase with each
// member's backend after it, and what to take away.
func BuildSpace(s *etcd.SpaceStory, lang string) *report.Doc {
	c := For(lang)
	d := &report.Doc{Title: c.T("space.title", s.Nodes)}
	d.P(c.T("space.settings", s.QuotaBytes, bytes(c, s.QuotaBytes), bytes(c, etcd.DefaultQuotaBytes), bytes(c, etcd.MaxQuotaBytes),
		s.Cost, bytes(c, int64(s.Cost))))
	d.Styled("note", c.T("space.model"))
	d.H(1, c.T("story.title"))
	var lines []string
	flush := func() {
		if len(lines) > 0 {
			d.L(lines...)
			lines = nil
		}
	}
	phase, defrags := "", 0
	for _, st := range s.Steps {
		if st.Phase != phase {
			flush()
			phase = st.Phase
			key := "space.phase." + phase
			if phase == etcd.SpacePhaseRecover && !s.Defrag {
				key += ".nodefrag"
			}
			d.H(2, c.T(key))
		}
		if st.Kind == etcd.SpaceState {
			flush()
			d.T(backendTable(c, st.Backends))
			continue
		}
		if st.Kind == etcd.SpaceDefrag {
			defrags++
			if defrags > 1 { // the why once
				lines = append(lines, c.T("space.defrag.more", member(st.Node), bytes(c, st.Before), bytes(c, st.After)))
				continue
			}
		}
		lines = append(lines, spaceLine(c, s, st))
	}
	flush()
	d.H(1, c.T("lesson.title"))
	lessons := []string{c.T("space.lesson.quota"), c.T("space.lesson.compact")}
	if s.Defrag {
		lessons = append(lessons, c.T("space.lesson.defrag"))
	} else {
		lessons = append(lessons, c.T("space.lesson.nodefrag"))
	}
	lessons = append(lessons, c.T("space.lesson.alarm"), c.T("space.lesson.k8s"))
	d.L(lessons...)
	d.Sequence = spaceSequence(c, s)
	d.Data = s
	return d
}

func spaceLine(c Catalogue, s *etcd.SpaceStory, st etcd.SpaceStep) string {
	switch st.Kind {
	case etcd.SpacePut:
		return c.T("space.put", st.Key, st.Index, st.Rev, bytes(c, st.Size))
	case etcd.SpaceFill:
		return c.T("space.fill", st.Count, st.Key, bytes(c, int64(s.ValueBytes)), st.From, st.Rev, bytes(c, st.Size), bytes(c, s.QuotaBytes))
	case etcd.SpaceRefused:
		if st.Stage == "quota" {
			return c.T("space.refused.quota", member(st.Node), bytes(c, st.Size), bytes(c, int64(s.Cost)), bytes(c, s.QuotaBytes), st.Error)
		}
		return c.T("space.refused.applier", st.Index, st.Error)
	case etcd.SpaceAlarm:
		if st.Activate {
			return c.T("space.alarm", member(st.Node), st.Index, st.Node)
		}
		return c.T("space.disarm", st.Index, st.Node)
	case etcd.SpaceDelete:
		return c.T("space.delete", st.Key, st.Index, st.Rev)
	case etcd.SpaceCompact:
		return c.T("space.compact", st.Rev, st.Index, bytes(c, st.Before), bytes(c, st.After), bytes(c, st.Size))
	case etcd.SpaceCompactE:
		return c.T("space.compact.error", st.Rev, st.Error)
	case etcd.SpaceDefrag:
		return c.T("space.defrag", member(st.Node), bytes(c, st.Before), bytes(c, st.After))
	}
	return st.Kind
}

// backendTable is every member's backend, as `etcdctl endpoint status`
// shows it, with the alarm.
func backendTable(c Catalogue, bs []etcd.Backend) *report.Table {
	t := &report.Table{Header: []string{c.T("space.col.member"), c.T("state.role"), c.T("space.col.size"), c.T("space.col.inuse"),
		c.T("space.col.rev"), c.T("space.col.compacted"), c.T("space.col.index"), c.T("space.col.alarm")},
		Right: []bool{false, false, true, true, true, true, true, false}}
	for _, b := range bs {
		alarm, compacted := "-", "-"
		if b.NoSpace {
			alarm = "NOSPACE"
		}
		if b.Compacted > 0 {
			compacted = fmt.Sprint(b.Compacted)
		}
		t.Rows = append(t.Rows, []string{member(b.ID), c.T("role." + b.Role), bytes(c, b.Size), bytes(c, b.InUse),
			fmt.Sprint(b.Revision), compacted, fmt.Sprint(b.Index), alarm})
	}
	return t
}

// bytes writes n in IEC units with one decimal (KiB, MiB, GiB), as etcd's
// own logs write sizes (humanize.Bytes uses SI; the IEC units say what the
// quota's powers of two are).
func bytes(c Catalogue, n int64) string {
	units := []string{"unit.B", "unit.KiB", "unit.MiB", "unit.GiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 {
		return c.T(units[0], n)
	}
	return l10n.Fixed(c.Lang(), v, 1) + " " + c.T(units[u])
}

// spaceSequence is the sequenceDiagram of the space story (--format
// mermaid): the kube-apiserver's requests and etcdctl's commands to the
// members, their answers, and the alarm as a note.
func spaceSequence(c Catalogue, s *etcd.SpaceStory) *report.Sequence {
	seq := &report.Sequence{Participants: []report.Participant{{ID: "api", Label: "kube-apiserver"}, {ID: "ctl", Label: "etcdctl"}}}
	for i := 1; i <= s.Nodes; i++ {
		seq.Participants = append(seq.Participants, report.Participant{ID: fmt.Sprintf("etcd%d", i), Label: member(uint64(i))})
	}
	id := func(n uint64) string { return fmt.Sprintf("etcd%d", n) }
	add := func(m report.Message) { seq.Messages = append(seq.Messages, m) }
	ask := func(from string, to uint64, req, answer string) {
		add(report.Message{From: from, To: id(to), Text: req})
		add(report.Message{From: id(to), To: from, Reply: true, Text: answer})
	}
	phase := ""
	for _, st := range s.Steps {
		if st.Phase != phase {
			phase = st.Phase
			key := "space.phase." + phase
			if phase == etcd.SpacePhaseRecover && !s.Defrag {
				key += ".nodefrag"
			}
			add(report.Message{Section: true, Text: c.T(key)})
		}
		switch st.Kind {
		case etcd.SpacePut:
			ask("api", st.Node, "Put "+st.Key, c.T("space.seq.rev", st.Rev))
		case etcd.SpaceFill:
			ask("api", 1, c.T("space.seq.fill", st.Key, st.Count), c.T("space.seq.revs", st.From, st.Rev))
			add(report.Message{From: id(1), Note: true, Text: c.T("space.seq.backend", bytes(c, st.Size), bytes(c, s.QuotaBytes))})
		case etcd.SpaceRefused:
			ask("api", st.Node, "Put "+st.Key, st.Error)
		case etcd.SpaceAlarm:
			if st.Activate {
				add(report.Message{From: id(st.Node), Note: true, Text: c.T("space.seq.alarm", st.Index)})
			} else {
				ask("ctl", st.Node, "alarm disarm", c.T("space.seq.disarmed", st.Index))
			}
		case etcd.SpaceDelete:
			ask("api", st.Node, "DeleteRange "+st.Key, c.T("space.seq.rev", st.Rev))
		case etcd.SpaceCompact:
			ask("ctl", st.Node, fmt.Sprintf("compact %d", st.Rev), fmt.Sprintf("compacted revision %d", st.Rev))
		case etcd.SpaceCompactE:
			ask("ctl", 1, fmt.Sprintf("compact %d", st.Rev), st.Error)
		case etcd.SpaceDefrag:
			ask("ctl", st.Node, "defrag", bytes(c, st.Before)+" → "+bytes(c, st.After))
		}
	}
	return seq
}
