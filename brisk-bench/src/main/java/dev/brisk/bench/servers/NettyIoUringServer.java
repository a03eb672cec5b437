package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import dev.brisk.bench.Json;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.handler.codec.compression.StandardCompressionOptions;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContentCompressor;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Netty 4.2 on its io_uring transport ({@code netty-transport-native-io_uring}): the pipeline and handler of
 * {@link NettyServer} (codec, compressor, aggregator, chunked writer, WebSocket echo, one
 * {@code SimpleChannelInboundHandler}) on {@code IoUringIoHandler} loops, one boss thread and the default
 * worker count (2 × cores), so the two Netty servers differ only in the transport. No static files (the
 * harness measures those on {@code netty}). Where io_uring is unavailable it does not start: a benchmark
 * labelled io_uring must not quietly run on epoll, so {@link #start} throws with Netty's reason.
 */
public final class NettyIoUringServer implements BenchServer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OK = "OK".getBytes(StandardCharsets.UTF_8);
    private static final String TEXT = "text/plain";
    private static final int MAX_BODY = 1024 * 1024;

    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private Channel channel;

    /** {@return why Netty's io_uring transport cannot run here, or empty when it can} */
    public static Optional<String> unavailable() {
        if (IoUring.isAvailable()) {
            return Optional.empty();
        }
        Throwable cause = IoUring.unavailabilityCause();
        return Optional.of("Netty's io_uring transport is unavailable: " + (cause == null ? "no reason given" : cause));
    }

    @Override
    public void start(int port, BenchTls tls) throws InterruptedException {
        if (tls != null) {
            throw new UnsupportedOperationException("no TLS in this bench server");
        }
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new IllegalStateException(why.get() + " (netty-iouring does not fall back to epoll; use the netty server)",
                    IoUring.unavailabilityCause());
        }
        IoHandlerFactory io = IoUringIoHandler.newFactory();
        boss = new MultiThreadIoEventLoopGroup(1, io);
        workers = new MultiThreadIoEventLoopGroup(io);
        channel = new ServerBootstrap()
                .group(boss, workers)
                .channel(IoUringServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        // NettyServer's pipeline, handler for handler
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpContentCompressor(1024,
                                        StandardCompressionOptions.gzip(6, 15, 8),
                                        StandardCompressionOptions.deflate(6, 15, 8)),
                                new HttpObjectAggregator(MAX_BODY), new ChunkedWriteHandler(),
                                new WebSocketServerProtocolHandler("/ws/echo", null, false, MAX_BODY),
                                new WebSocketEcho(), new Handler());
                    }
                })
                .bind("127.0.0.1", port).sync().channel();
    }

    /** The WebSocket echo: each data frame back as it came (its buffer retained for the write). */
    private static final class WebSocketEcho extends SimpleChannelInboundHandler<WebSocketFrame> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
            if (frame instanceof TextWebSocketFrame || frame instanceof BinaryWebSocketFrame) {
                ctx.writeAndFlush(frame.retain());
            }
        }
    }

    /** The scenarios, answered as {@link NettyServer}'s handler answers them. */
    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            String path = new QueryStringDecoder(req.uri()).path();
            HttpMethod method = req.method();
            FullHttpResponse res;
            if (method.equals(HttpMethod.GET) && path.equals("/hello")) {
                res = response(HttpResponseStatus.OK, TEXT, Unpooled.wrappedBuffer(HELLO));
            } else if (method.equals(HttpMethod.GET) && path.equals("/json")) {
                res = response(HttpResponseStatus.OK, "application/json", Unpooled.wrappedBuffer(Json.hello()));
            } else if (method.equals(HttpMethod.GET) && path.startsWith("/users/") && path.length() > 7
                    && path.indexOf('/', 7) < 0) {
                res = response(HttpResponseStatus.OK, TEXT,
                        Unpooled.copiedBuffer(path.substring(7), StandardCharsets.UTF_8));
            } else if (method.equals(HttpMethod.POST) && path.equals("/echo")) {
                String type = req.headers().get(HttpHeaderNames.CONTENT_TYPE, "application/octet-stream");
                // the aggregated request body is released after this method; the response keeps its own reference
                res = response(HttpResponseStatus.OK, type, req.content().retainedDuplicate());
            } else if (method.equals(HttpMethod.POST) && path.equals("/consume")) {
                // the aggregator has already read the whole body
                res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT);
            } else if (method.equals(HttpMethod.GET) && path.equals("/health")) {
                res = response(HttpResponseStatus.OK, TEXT, Unpooled.wrappedBuffer(OK));
            } else {
                res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND);
                res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
            }

            boolean keepAlive = HttpUtil.isKeepAlive(req);
            if (keepAlive) {
                if (!req.protocolVersion().isKeepAliveDefault()) {
                    res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                }
                ctx.writeAndFlush(res);
            } else {
                res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
            }
        }

        private static FullHttpResponse response(HttpResponseStatus status, String type, ByteBuf body) {
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
            res.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, type)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
            return res;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        // no quiet period: the harness closes the server only after the load has stopped
        boss.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        boss.terminationFuture().syncUninterruptibly();
        workers.terminationFuture().syncUninterruptibly();
    }
}
