package grpclive

import (
	"bytes"
	"context"
	"fmt"

	"google.golang.org/grpc"
)

// The calls are grpc.health.v1.Health/Check, answered by a handler of our
// own instead of google.golang.org/grpc/health: that package and its
// generated protobuf code register their descriptors when the binary
// starts, a cost every k8sexplain command paid for two constant messages.
// On the wire nothing changes. The request is an empty HealthCheckRequest
// (service "", which encodes to no bytes) and the reply is
// HealthCheckResponse{status: SERVING}: field 1 as a varint (tag 0x08)
// with the value 1, what health.NewServer() answers for service "".
const checkMethod = "/grpc.health.v1.Health/Check"

var servingReply = []byte{0x08, 0x01}

// wire is a protobuf message kept as its encoded bytes.
type wire []byte

// wireCodec moves wire messages as they are. It is named "proto" because
// the bytes are protobuf: the content type is the one a generated client
// sends (application/grpc+proto).
type wireCodec struct{}

func (wireCodec) Name() string { return "proto" }

func (wireCodec) Marshal(v any) ([]byte, error) {
	w, ok := v.(*wire)
	if !ok {
		return nil, fmt.Errorf("grpclive: cannot marshal %T", v)
	}
	return *w, nil
}

func (wireCodec) Unmarshal(data []byte, v any) error {
	w, ok := v.(*wire)
	if !ok {
		return fmt.Errorf("grpclive: cannot unmarshal into %T", v)
	}
	*w = append((*w)[:0], data...)
	return nil
}

// healthService serves Check; the server is made with
// grpc.ForceServerCodec(wireCodec{}).
var healthService = grpc.ServiceDesc{
	ServiceName: "grpc.health.v1.Health",
	HandlerType: (*any)(nil),
	Methods:     []grpc.MethodDesc{{MethodName: "Check", Handler: serveCheck}},
	Metadata:    "grpc/health/v1/health.proto",
}

func serveCheck(_ any, ctx context.Context, decode func(any) error, intercept grpc.UnaryServerInterceptor) (any, error) {
	req := new(wire)
	if err := decode(req); err != nil {
		return nil, err
	}
	reply := func(context.Context, any) (any, error) {
		w := wire(servingReply)
		return &w, nil
	}
	if intercept == nil {
		return reply(ctx, req)
	}
	return intercept(ctx, req, &grpc.UnaryServerInfo{FullMethod: checkMethod}, reply)
}

// check makes one Check call on cc and wants SERVING back.
func check(ctx context.Context, cc *grpc.ClientConn) error {
	var reply wire
	if err := cc.Invoke(ctx, checkMethod, &wire{}, &reply, grpc.ForceCodec(wireCodec{})); err != nil {
		return err
	}
	if !bytes.Equal(reply, servingReply) {
		return fmt.Errorf("health check answered % x, want SERVING (% x)", []byte(reply), servingReply)
	}
	return nil
}
