package grpclive

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// The hand-written Check speaks grpc/health's protocol: grpc's health
// client gets SERVING from our server, and our client gets exactly the
// bytes it expects from grpc's health server.
func TestCheckIsGRPCHealth(t *testing.T) {
	if healthpb.Health_Check_FullMethodName != checkMethod {
		t.Errorf("method %q, want %q", checkMethod, healthpb.Health_Check_FullMethodName)
	}

	serve := func(s *grpc.Server) *grpc.ClientConn {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = s.Serve(lis) }()
		t.Cleanup(s.Stop)
		cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cc.Close() })
		return cc
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// grpc's health client against our server.
	ours := grpc.NewServer(grpc.ForceServerCodec(wireCodec{}))
	ours.RegisterService(&healthService, nil)
	got, err := healthpb.NewHealthClient(serve(ours)).Check(ctx, &healthpb.HealthCheckRequest{})
	if err != nil || got.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("library client, our server: %v, %v", got, err)
	}
	// our check against grpc's health server.
	theirs := grpc.NewServer()
	healthpb.RegisterHealthServer(theirs, health.NewServer())
	if err := check(ctx, serve(theirs)); err != nil {
		t.Errorf("our client, library server: %v", err)
	}
}
