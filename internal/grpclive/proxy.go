package grpclive

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"

	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

// proxy stands in for the node's kernel: a TCP listener on 127.0.0.1 that
// picks a backend once per new connection with kube-proxy's own rules (the
// seeded walk the dnat command prints) and then only copies bytes. Like
// DNAT with conntrack, it never looks inside the connection, so every RPC
// of an HTTP/2 connection reaches the backend its first packet chose.
type proxy struct {
	lis      net.Listener
	backends []string
	rs       kubeproxy.Ruleset
	byEP     map[string]int

	mu     sync.Mutex
	rng    *rand.Rand
	conns  []net.Conn
	chosen []int // backend per accepted connection, in accept order
	log    []proxied
	closed bool
	wg     sync.WaitGroup
}

func newProxy(backends []string, seed int64) (*proxy, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEnvironment, err)
	}
	// The Service's endpoints are the simulated pod addresses; pod i is
	// served by backend i.
	pods := make([]grpclb.Pod, len(backends))
	p := &proxy{lis: lis, backends: backends, byEP: map[string]int{},
		rng: rand.New(rand.NewPCG(uint64(seed), 0x6b38736578706c61))}
	for i := range pods {
		pods[i] = grpclb.Pod{Name: grpclb.PodName(i), IP: grpclb.PodIP(i)}
		p.byEP[kubeproxy.Endpoint{IP: pods[i].IP, Port: grpclb.Port}.String()] = i
	}
	p.rs = kubeproxy.BuildIPTables(kubeproxy.Config{ClusterCIDR: grpclb.ClusterCIDR},
		[]kubeproxy.ServicePort{grpclb.ServicePort(pods, 0)})
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// proxied is one connection the proxy carried: the client's address, the
// backend chosen and the proxy's own address on the upstream connection
// (what the backend sees as the caller).
type proxied struct {
	client   string
	backend  int
	upstream string
}

func (p *proxy) addr() string { return p.lis.Addr().String() }

func (p *proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.lis.Accept()
		if err != nil {
			return // closed
		}
		if !p.track(c) {
			return
		}
		p.wg.Add(1)
		go p.serve(c)
	}
}

// track remembers a connection so close can end it; false once closed.
func (p *proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.Close()
		return false
	}
	p.conns = append(p.conns, c)
	return true
}

// choose walks the connection's SYN through the rules: the client's real
// ephemeral port, the cluster IP and port of the simulated Service.
func (p *proxy) choose(c net.Conn) int {
	sport := 0
	if _, port, err := net.SplitHostPort(c.RemoteAddr().String()); err == nil {
		sport, _ = strconv.Atoi(port)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.rs.WalkNew(kubeproxy.Packet{Src: grpclb.ClientIP(0), Dst: grpclb.ClusterIP, SPort: sport, DPort: grpclb.Port, Proto: "tcp"}, p.rng, nil)
	b := p.byEP[w.Endpoint]
	p.chosen = append(p.chosen, b)
	return b
}

func (p *proxy) serve(c net.Conn) {
	defer p.wg.Done()
	defer c.Close()
	b := p.choose(c)
	up, err := net.Dial("tcp", p.backends[b])
	if err != nil {
		return
	}
	if !p.track(up) {
		return
	}
	p.mu.Lock()
	p.log = append(p.log, proxied{client: c.RemoteAddr().String(), backend: b, upstream: up.LocalAddr().String()})
	p.mu.Unlock()
	defer up.Close()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		// Half-close is not needed by HTTP/2: end both sides.
		dst.Close()
		src.Close()
		done <- struct{}{}
	}
	go pipe(up, c)
	go pipe(c, up)
	<-done
	<-done
}

// close stops accepting, ends every connection and waits for the copiers;
// it returns the backends chosen and the connections carried.
func (p *proxy) close() ([]int, []proxied) {
	p.mu.Lock()
	p.closed = true
	conns := p.conns
	p.mu.Unlock()
	p.lis.Close()
	for _, c := range conns {
		c.Close()
	}
	p.wg.Wait()
	return p.chosen, p.log
}
