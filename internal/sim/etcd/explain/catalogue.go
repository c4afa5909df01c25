package explain

import "github.com/k8sexplain/k8sexplain/internal/l10n"

// The texts `k8sexplain quorum` prints, in English (catalogue_en.go) and
// Russian (catalogue_ru.go). Package etcd records structured events only;
// this package picks a text by key and fills in its placeholders ({1},
// {2}, … in the order of the arguments; l10n.Catalog).

// Catalogue is the texts of one language.
type Catalogue = l10n.Texts

// Catalog holds both languages (for the completeness test).
var Catalog = l10n.LazyCatalog(func() (map[string]string, map[string]string) { return en(), ru() })

// For returns the catalogue of lang, English when lang is unknown.
func For(lang string) Catalogue { return Catalog.In(lang) }

// Keys lists every key of lang (for the completeness test).
func Keys(lang string) []string { return Catalog.Keys(lang) }
