package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The real node (issue 24) pulls its images from a distribution registry on
// the loopback of the recorder's network namespace: nothing comes from the
// internet. Each image is built here from source as an OCI image (one
// layer), written as an OCI image-layout tarball into the cache and pushed
// to that registry; containerd's registry mirror config (hosts.toml) sends
// docker.io and registry.k8s.io there.

// imageFile is one regular file or symlink of an image's only layer.
type imageFile struct {
	Path string // inside the image, without the leading /
	Src  string // a file to copy, or
	Link string // a symlink target, or
	Data string // the file's content
}

type image struct {
	Ref        string // what the node pulls, fully qualified
	Files      []imageFile
	Entrypoint []string
	Cmd        []string
}

// repoTag splits docker.io/library/nginx:1.27 into library/nginx and 1.27.
func (im image) repoTag() (string, string) {
	r := im.Ref
	if i := strings.Index(r, "/"); i > 0 {
		r = r[i+1:]
	}
	i := strings.LastIndex(r, ":")
	return r[:i], r[i+1:]
}

// oracleImages are the images the node scenarios use: the examples' nginx
// (the stand-in server), busybox (Debian's busybox-static) and the pause
// image with the modelled tag (internal/k8sversion PauseImage).
func oracleImages(binDir string) []image {
	// each tag its own image, as upstream's are: a file names it
	srv := func(tag string) []imageFile {
		return []imageFile{{Path: "server", Src: filepath.Join(binDir, "server")}, {Path: "etc/image", Data: "nginx:" + tag + " (k8sexplain oracle stand-in)\n"}}
	}
	bb := []imageFile{{Path: "bin/busybox", Src: "/bin/busybox"}}
	for _, app := range []string{"sh", "echo", "sleep", "tail", "cat", "ls", "true", "false", "mkdir", "touch", "wget"} {
		bb = append(bb, imageFile{Path: "bin/" + app, Link: "busybox"})
	}
	return []image{
		{Ref: "docker.io/library/nginx:1.27", Files: srv("1.27"), Entrypoint: []string{"/server"}},
		{Ref: "docker.io/library/nginx:1.28", Files: srv("1.28"), Entrypoint: []string{"/server"}},
		{Ref: "docker.io/library/busybox:1.37", Files: bb, Cmd: []string{"sh"}},
		{Ref: pauseImage, Files: []imageFile{{Path: "pause", Src: filepath.Join(binDir, "pause")}}, Entrypoint: []string{"/pause"}},
	}
}

// pauseImage is internal/k8sversion PauseImage (the sandbox image the
// simulator names).
const pauseImage = "registry.k8s.io/pause:3.10.2"

// buildImageBinaries compiles the stand-in server and pause statically.
func buildImageBinaries(ctx context.Context, binDir string) error {
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"server", "pause"} {
		cmd := exec.CommandContext(ctx, "nice", "-n", "19", "go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(binDir, name), "./images/"+name)
		cmd.Dir = filepath.Join(repoRoot, "oracle")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("build image binary %s: %w", name, err)
		}
	}
	return nil
}

type blob struct {
	MediaType string
	Data      []byte
}

func (b blob) digest() string {
	s := sha256.Sum256(b.Data)
	return "sha256:" + hex.EncodeToString(s[:])
}

type descriptor struct {
	MediaType string `json:"mediaType"`
	Digest    string `json:"digest"`
	Size      int    `json:"size"`
}

func (b blob) desc() descriptor {
	return descriptor{MediaType: b.MediaType, Digest: b.digest(), Size: len(b.Data)}
}

// builtImage is an image's manifest, config and layer, all content-addressed.
type builtImage struct {
	image
	Manifest, Config, Layer blob
}

// epoch is every file's mtime and the image's creation time, so the same
// sources give the same digests.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func buildImage(im image) (*builtImage, error) {
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	dirs := map[string]bool{}
	files := append([]imageFile(nil), im.Files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		if d := filepath.Dir(f.Path); d != "." && !dirs[d] {
			dirs[d] = true
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755, ModTime: epoch, Format: tar.FormatPAX}); err != nil {
				return nil, err
			}
		}
		if f.Link != "" {
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: f.Path, Linkname: f.Link, Mode: 0o777, ModTime: epoch, Format: tar.FormatPAX}); err != nil {
				return nil, err
			}
			continue
		}
		b := []byte(f.Data)
		if f.Src != "" {
			var err error
			if b, err = os.ReadFile(f.Src); err != nil {
				return nil, err
			}
		}
		mode := int64(0o755) // binaries
		if f.Src == "" {
			mode = 0o644
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: f.Path, Mode: mode, Size: int64(len(b)), ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(b); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	diffID := sha256.Sum256(raw.Bytes())
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	bi := &builtImage{image: im, Layer: blob{"application/vnd.oci.image.layer.v1.tar+gzip", gz.Bytes()}}
	cfg := map[string]any{
		"created": epoch.Format(time.RFC3339), "architecture": "amd64", "os": "linux",
		"config": map[string]any{"Entrypoint": im.Entrypoint, "Cmd": im.Cmd,
			"Env": []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}},
		"rootfs":  map[string]any{"type": "layers", "diff_ids": []string{"sha256:" + hex.EncodeToString(diffID[:])}},
		"history": []map[string]any{{"created": epoch.Format(time.RFC3339), "created_by": "k8sexplain oracle/images.go"}},
	}
	cb, _ := json.Marshal(cfg)
	bi.Config = blob{"application/vnd.oci.image.config.v1+json", cb}
	mb, _ := json.Marshal(map[string]any{
		"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
		"config": bi.Config.desc(), "layers": []descriptor{bi.Layer.desc()},
	})
	bi.Manifest = blob{"application/vnd.oci.image.manifest.v1+json", mb}
	return bi, nil
}

// writeOCILayout writes the image as an OCI image-layout tarball.
func writeOCILayout(bi *builtImage, path string) error {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(name string, b []byte) error {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(b)), ModTime: epoch}); err != nil {
			return err
		}
		_, err := tw.Write(b)
		return err
	}
	md := bi.Manifest.desc()
	idx, _ := json.Marshal(map[string]any{"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
		"manifests": []any{map[string]any{"mediaType": md.MediaType, "digest": md.Digest, "size": md.Size,
			"annotations": map[string]string{"org.opencontainers.image.ref.name": bi.Ref}}}})
	if err := add("oci-layout", []byte(`{"imageLayoutVersion":"1.0.0"}`)); err != nil {
		return err
	}
	if err := add("index.json", idx); err != nil {
		return err
	}
	for _, b := range []blob{bi.Config, bi.Layer, bi.Manifest} {
		if err := add("blobs/sha256/"+strings.TrimPrefix(b.digest(), "sha256:"), b.Data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// push uploads the image to a distribution registry with the v2 API:
// monolithic blob uploads (POST, then PUT ?digest=), then the manifest.
func push(ctx context.Context, registry string, bi *builtImage) error {
	repo, tag := bi.repoTag()
	base := "http://" + registry + "/v2/" + repo
	do := func(method, url, ctype string, body []byte, want int) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			return nil, fmt.Errorf("%s %s: %s", method, url, resp.Status)
		}
		return resp, nil
	}
	for _, b := range []blob{bi.Layer, bi.Config} {
		resp, err := do("POST", base+"/blobs/uploads/", "", nil, http.StatusAccepted)
		if err != nil {
			return err
		}
		loc := resp.Header.Get("Location")
		if !strings.HasPrefix(loc, "http") {
			loc = "http://" + registry + loc
		}
		sep := "?"
		if strings.Contains(loc, "?") {
			sep = "&"
		}
		if _, err := do("PUT", loc+sep+"digest="+b.digest(), "application/octet-stream", b.Data, http.StatusCreated); err != nil {
			return err
		}
	}
	_, err := do("PUT", base+"/manifests/"+tag, bi.Manifest.MediaType, bi.Manifest.Data, http.StatusCreated)
	return err
}

// prepareImages builds every image (cached as OCI tarballs under
// cache/images) and pushes it to the registry.
func prepareImages(ctx context.Context, cache, registry string) ([]*builtImage, error) {
	dir := filepath.Join(cache, "images")
	if err := buildImageBinaries(ctx, filepath.Join(dir, "bin")); err != nil {
		return nil, err
	}
	var out []*builtImage
	for _, im := range oracleImages(filepath.Join(dir, "bin")) {
		bi, err := buildImage(im)
		if err != nil {
			return nil, fmt.Errorf("image %s: %w", im.Ref, err)
		}
		name := strings.NewReplacer("/", "_", ":", "_").Replace(im.Ref) + ".oci.tar"
		if err := writeOCILayout(bi, filepath.Join(dir, name)); err != nil {
			return nil, err
		}
		if err := push(ctx, registry, bi); err != nil {
			return nil, fmt.Errorf("push %s: %w", im.Ref, err)
		}
		logv("pushed %s (%s, %d bytes) to %s", im.Ref, bi.Manifest.digest()[:19], len(bi.Layer.Data), registry)
		out = append(out, bi)
	}
	return out, nil
}
