package manifest

import "fmt"

// Limits that keep hostile input (alias bombs, huge files, deep nesting)
// bounded in time and memory. A real manifest is far below every one:
// the largest CRDs in the wild are about 1 MiB and 40 levels deep.
const (
	// MaxFileBytes is the largest file (or stdin) the loader reads.
	MaxFileBytes = 8 << 20
	// MaxDocuments is the most YAML documents (empty ones too) per file.
	MaxDocuments = 10000
	// MaxObjects is the most objects (documents and List items) per file.
	MaxObjects = 10000
	// MaxTotalBytes bounds every file, directory and stdin of one run
	// together: a directory of many files stays bounded too.
	MaxTotalBytes = 32 << 20
	// MaxTotalObjects bounds the objects of one run together.
	MaxTotalObjects = 20000
	// MaxDepth is the deepest nesting of mappings and sequences.
	MaxDepth = 100
	// maxNodes bounds the YAML nodes visited per file, counting every alias
	// expansion again: this is what stops a "billion laughs" document.
	maxNodes = 1_000_000
	// maxAliasNodes bounds the nodes visited through aliases per file.
	// Anchors in manifests repeat a few small blocks (an env list, a set
	// of labels); a bomb needs millions.
	maxAliasNodes = 100_000
	// maxJSONBytes bounds the JSON the loader builds per file, so an alias
	// to a long string repeated many times cannot exhaust memory.
	maxJSONBytes = 64 << 20
	// maxPathBytes bounds the field paths ("spec.template...") built per
	// object to place errors; past it errors name the object's line.
	maxPathBytes = 16 << 20
)

// sizeText prints a byte count the way the error messages show it.
func sizeText(n int64) string {
	const mib = 1 << 20
	if n >= mib && n%mib == 0 {
		return fmt.Sprintf("%d MiB", n/mib)
	}
	if n >= mib {
		return fmt.Sprintf("%.1f MiB", float64(n)/mib)
	}
	return fmt.Sprintf("%d bytes", n)
}
