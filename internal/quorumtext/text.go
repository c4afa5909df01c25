// Package quorumtext is the catalogue of texts `k8sexplain quorum` prints, in
// English and Russian. The simulator (internal/sim/etcd) records structured
// events only; the command picks a text here by key and fills in the
// numbers with fmt verbs (indexed verbs where a language needs another order).
package quorumtext

import "github.com/k8sexplain/k8sexplain/internal/report"

// Catalogue maps keys to format strings for one language.
type Catalogue = report.Texts

var langs = map[string]Catalogue{"en": en, "ru": ru}

// For returns the catalogue of lang, English when lang is unknown.
func For(lang string) Catalogue {
	if c, ok := langs[lang]; ok {
		return c
	}
	return en
}

// Keys lists every key of lang (for the completeness test).
func Keys(lang string) []string {
	var ks []string
	for k := range For(lang) {
		ks = append(ks, k)
	}
	return ks
}
