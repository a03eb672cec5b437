package dev.brisk.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brisk.Brisk;
import dev.brisk.Context;
import dev.brisk.testing.Engine;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * gRPC's unary and server-streaming calls served by plain Brisk handlers, as grpc-java's own client
 * (h2c, prior knowledge) makes them: a length-prefixed message in, one or many out, and the call's
 * status in the response's trailers ({@code grpc-status}, {@code grpc-message}), which the client
 * cannot do without. The messages are
 * bytes (a marshaller of its own, no protobuf): the framing, the headers and the trailers are what is
 * tested.
 */
class GrpcCallsTest {
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
    private static final MethodDescriptor<byte[], byte[]> SAY = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("brisk.Echo/Say")
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

    private static final MethodDescriptor<byte[], byte[]> COUNT = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.SERVER_STREAMING).setFullMethodName("brisk.Echo/Count")
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

    private Brisk app;
    private ManagedChannel channel;

    @AfterEach
    void stop() throws Exception {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        if (app != null) {
            app.close();
        }
    }

    /** The handler: the request's one message, answered "hello, " + it; an empty one is refused in the trailers. */
    private static void say(Context ctx) {
        ByteBuffer in = ByteBuffer.wrap(ctx.body());
        boolean grpc = "application/grpc".equals(ctx.header("content-type")) && "trailers".equals(ctx.header("te"));
        if (!grpc || in.remaining() < 5 || in.get() != 0 || in.getInt() != in.remaining()) {
            ctx.status(400).text("not a gRPC unary request");
            return;
        }
        byte[] name = new byte[in.remaining()];
        in.get(name);
        ctx.contentType("application/grpc");
        if (name.length == 0) {
            ctx.bytes(new byte[0]).trailers(() -> Map.of("grpc-status", "3", "grpc-message", "a name is needed"));
            return;
        }
        byte[] reply = ("hello, " + new String(name, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(5 + reply.length).put((byte) 0).putInt(reply.length).put(reply);
        ctx.bytes(out.array()).trailers(() -> Map.of("grpc-status", "0"));
    }

    /**
     * A server-streaming call: the request's one message is a count n, the answer n messages made as the
     * body stream is read (a stream the server pumps), then the status in the trailers.
     */
    private static void count(Context ctx) {
        ByteBuffer in = ByteBuffer.wrap(ctx.body());
        in.position(5);
        int n = Integer.parseInt(StandardCharsets.UTF_8.decode(in).toString());
        ctx.contentType("application/grpc").stream(new InputStream() {
            private int next;
            private ByteBuffer message = ByteBuffer.allocate(0);

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (!message.hasRemaining()) {
                    if (next == n) {
                        return -1;
                    }
                    byte[] m = ("message " + next++).getBytes(StandardCharsets.UTF_8);
                    message = ByteBuffer.allocate(5 + m.length).put((byte) 0).putInt(m.length).put(m).flip();
                }
                int k = Math.min(len, message.remaining());
                message.get(b, off, k);
                return k;
            }
        }).trailers(() -> Map.of("grpc-status", "0"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void grpcJavasClientGetsTheAnswerAndTheStatusFromTheTrailers(Engine engine) {
        app = Brisk.create(cfg -> {
            engine.apply(cfg);
            cfg.options().port(0).host("127.0.0.1").shutdownTimeout(Duration.ofSeconds(1));
            cfg.post("/brisk.Echo/Say", GrpcCallsTest::say);
            cfg.post("/brisk.Echo/Count", GrpcCallsTest::count);
        }).start();
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", app.port()).usePlaintext().build();
        CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
        for (String name : new String[] {"brisk", "world", "é"}) {
            byte[] answer = ClientCalls.blockingUnaryCall(channel, SAY, options, name.getBytes(StandardCharsets.UTF_8));
            assertThat(new String(answer, StandardCharsets.UTF_8)).isEqualTo("hello, " + name);
        }
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, SAY, options, new byte[0]))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                    assertThat(e.getStatus().getDescription()).isEqualTo("a name is needed");
                });
        java.util.List<String> got = new java.util.ArrayList<>();
        ClientCalls.blockingServerStreamingCall(channel, COUNT, options, "300".getBytes(StandardCharsets.UTF_8))
                .forEachRemaining(m -> got.add(new String(m, StandardCharsets.UTF_8)));
        assertThat(got).hasSize(300).startsWith("message 0", "message 1").endsWith("message 299");
    }
}
