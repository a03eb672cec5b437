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
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.codec.compression.StandardCompressionOptions;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpChunkedInput;
import io.netty.handler.codec.http.HttpContentCompressor;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedFile;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
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
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Netty 4.2: {@code HttpServerCodec} + {@code HttpObjectAggregator} + one {@code SimpleChannelInboundHandler}.
 * Native epoll when available, else NIO; one boss thread, the default worker count (2 × cores).
 * {@code /static/<file>} as Netty's static-file example serves a file: a {@code DefaultFileRegion}
 * (sendfile) when the answer goes uncompressed, a {@code ChunkedFile} through {@code ChunkedWriteHandler}
 * when {@code HttpContentCompressor} (gzip level 6 from 1 KiB) compresses it.
 *
 * <p>HTTP/2 as Netty's own hello-world example serves it: {@code Http2FrameCodec} and one handler per
 * connection answering each stream's {@code HEADERS} with a {@code HEADERS} and a {@code DATA} frame, flushed
 * once per read (the GET routes; other requests get 404). On the plain port a connection that opens with the
 * HTTP/2 preface gets that pipeline (h2c with prior knowledge; the detector, like Netty's
 * {@code CleartextHttp2ServerUpgradeHandler}, leaves the HTTP/1.1 pipeline unchanged for everyone else, and
 * {@code Upgrade: h2c} is not offered); on the TLS port ({@code SslContext} of the JDK provider, PEM key)
 * ALPN picks h2 or http/1.1.
 */
public final class NettyServer implements BenchServer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OK = "OK".getBytes(StandardCharsets.UTF_8);
    private static final String TEXT = "text/plain";
    private static final int MAX_BODY = 1024 * 1024;

    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private Channel channel;
    private Channel secureChannel;

    @Override
    public void start(int port, BenchTls tls) throws Exception {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        boss = new MultiThreadIoEventLoopGroup(1, io);
        workers = new MultiThreadIoEventLoopGroup(io);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(channelType);
        channel = bootstrap.clone()
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new PrefaceDetector());
                    }
                })
                .bind("127.0.0.1", port).sync().channel();
        if (tls != null) {
            SslContext ssl = SslContextBuilder.forServer(tls.certPem().toFile(), tls.keyPem().toFile())
                    .sslProvider(SslProvider.JDK)
                    .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                            ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
                    .build();
            secureChannel = bootstrap.clone()
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(ssl.newHandler(ch.alloc()), new AlpnChooser());
                        }
                    })
                    .bind("127.0.0.1", tls.port()).sync().channel();
        }
    }

    /** The HTTP/1.1 handlers, as they always were. */
    /** The HTTP/1.1 pipeline: also {@link NettyIoUringServer}'s, so the two differ only in the transport. */
    static void http1(ChannelPipeline p) {
        p.addLast(new HttpServerCodec(), new HttpContentCompressor(1024,
                        StandardCompressionOptions.gzip(6, 15, 8), StandardCompressionOptions.deflate(6, 15, 8)),
                new HttpObjectAggregator(MAX_BODY), new ChunkedWriteHandler(),
                new WebSocketServerProtocolHandler("/ws/echo", null, false, MAX_BODY),
                new WebSocketEcho(), new Handler());
    }

    /** The HTTP/2 handlers: the frame codec (default settings) and the per-connection handler. */
    private static void http2(ChannelPipeline p) {
        p.addLast(Http2FrameCodecBuilder.forServer().build(), new Http2Handler());
    }

    /** TLS: once ALPN has settled, h2 or HTTP/1.1. */
    private static final class AlpnChooser extends ApplicationProtocolNegotiationHandler {
        AlpnChooser() {
            super(ApplicationProtocolNames.HTTP_1_1);
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                http2(ctx.pipeline());
            } else {
                http1(ctx.pipeline());
            }
        }
    }

    /**
     * The plain port: reads until the first bytes match the HTTP/2 connection preface or cannot, installs
     * the HTTP/2 or the HTTP/1.1 handlers, and leaves (the bytes read go on to them).
     */
    private static final class PrefaceDetector extends ByteToMessageDecoder {
        private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            int n = Math.min(in.readableBytes(), PREFACE.readableBytes());
            boolean prefix = io.netty.buffer.ByteBufUtil.equals(PREFACE, PREFACE.readerIndex(), in, in.readerIndex(), n);
            if (prefix && n < PREFACE.readableBytes()) {
                return; // not yet known
            }
            ChannelPipeline p = ctx.pipeline();
            if (prefix) {
                http2(p);
            } else {
                http1(p);
            }
            p.remove(this); // hands what it holds to the handlers after it
        }
    }

    /**
     * One HTTP/2 connection: each request stream answered when its {@code HEADERS} (or its last {@code DATA})
     * ends it; request bodies are released and their flow-control window returned at once.
     */
    private static final class Http2Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame headers) {
                // with a body, answered at its end (the routes that take one are HTTP/1.1-only here: 404)
                if (headers.isEndStream()) {
                    answer(ctx, headers.stream(), headers.headers());
                }
            } else if (msg instanceof Http2DataFrame data) {
                int bytes = data.initialFlowControlledBytes();
                Http2FrameStream stream = data.stream();
                boolean end = data.isEndStream();
                data.release();
                if (bytes > 0) {
                    ctx.write(new DefaultHttp2WindowUpdateFrame(bytes).stream(stream));
                }
                if (end) {
                    answer(ctx, stream, new DefaultHttp2Headers().method("POST").path("/"));
                }
            } else {
                io.netty.util.ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        private static void answer(ChannelHandlerContext ctx, Http2FrameStream stream, Http2Headers request) {
            String path = new QueryStringDecoder(request.path().toString()).path();
            boolean get = "GET".contentEquals(request.method());
            String type = TEXT;
            ByteBuf body;
            if (get && path.equals("/hello")) {
                body = Unpooled.wrappedBuffer(HELLO);
            } else if (get && path.equals("/json")) {
                type = "application/json";
                body = Unpooled.wrappedBuffer(Json.hello());
            } else if (get && path.startsWith("/users/") && path.length() > 7 && path.indexOf('/', 7) < 0) {
                body = Unpooled.copiedBuffer(path.substring(7), StandardCharsets.UTF_8);
            } else if (get && path.equals("/health")) {
                body = Unpooled.wrappedBuffer(OK);
            } else {
                ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("404"), true).stream(stream));
                return;
            }
            Http2Headers headers = new DefaultHttp2Headers().status("200")
                    .set(HttpHeaderNames.CONTENT_TYPE, type)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
            ctx.write(new DefaultHttp2HeadersFrame(headers).stream(stream));
            ctx.write(new DefaultHttp2DataFrame(body, true).stream(stream));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
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

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            String path = new QueryStringDecoder(req.uri()).path();
            HttpMethod method = req.method();
            FullHttpResponse res;
            if (method.equals(HttpMethod.GET) && path.startsWith("/static/") && BenchServer.staticDir() != null) {
                staticFile(ctx, req, path.substring(8));
                return;
            }
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

        /** One file of the static directory: no subdirectories, no dot files. */
        private static void staticFile(ChannelHandlerContext ctx, FullHttpRequest req, String name) {
            java.io.File file = BenchServer.staticDir().resolve(name).toFile();
            if (name.isEmpty() || name.contains("/") || name.startsWith(".") || !file.isFile()) {
                FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND);
                res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
                ctx.writeAndFlush(res);
                return;
            }
            java.io.RandomAccessFile raf;
            try {
                raf = new java.io.RandomAccessFile(file, "r");
            } catch (java.io.FileNotFoundException e) {
                ctx.close();
                return;
            }
            long length = file.length();
            HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            String type = name.endsWith(".json") ? "application/json" : name.endsWith(".txt") ? TEXT
                    : "application/octet-stream";
            res.headers().set(HttpHeaderNames.CONTENT_TYPE, type).setInt(HttpHeaderNames.CONTENT_LENGTH, (int) length);
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            if (!keepAlive) {
                res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            }
            ctx.write(res);
            String accept = req.headers().get(HttpHeaderNames.ACCEPT_ENCODING, "");
            io.netty.channel.ChannelFuture last;
            try {
                if (accept.contains("gzip") || accept.contains("deflate")) {
                    // the compressor needs the bytes: chunks through ChunkedWriteHandler (it ends the body)
                    last = ctx.writeAndFlush(new HttpChunkedInput(new ChunkedFile(raf, 0, length, 8192)));
                } else {
                    ctx.write(new DefaultFileRegion(raf.getChannel(), 0, length));
                    last = ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                }
            } catch (java.io.IOException e) {
                ctx.close();
                return;
            }
            if (!keepAlive) {
                last.addListener(ChannelFutureListener.CLOSE);
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
        if (secureChannel != null) {
            secureChannel.close().syncUninterruptibly();
        }
        // no quiet period: the harness closes the server only after the load has stopped
        boss.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        boss.terminationFuture().syncUninterruptibly();
        workers.terminationFuture().syncUninterruptibly();
    }
}
