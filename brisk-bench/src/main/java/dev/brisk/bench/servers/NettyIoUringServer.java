package dev.brisk.bench.servers;

import dev.brisk.bench.BenchServer;
import dev.brisk.bench.BenchTls;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Netty 4.2 on its io_uring transport ({@code netty-transport-native-io_uring}): the pipeline and handler of
 * {@link NettyServer} (codec, compressor, aggregator, chunked writer, WebSocket echo, one
 * {@code SimpleChannelInboundHandler}) on {@code IoUringIoHandler} loops, one boss thread and the default
 * worker count (2 × cores), so the two Netty servers differ only in the transport (the harness measures
 * static files on {@code netty} only). Where io_uring is unavailable it does not start: a benchmark
 * labelled io_uring must not quietly run on epoll, so {@link #start} throws with Netty's reason.
 */
public final class NettyIoUringServer implements BenchServer {

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
                        NettyServer.http1(ch.pipeline()); // NettyServer's pipeline, handler for handler
                    }
                })
                .bind("127.0.0.1", port).sync().channel();
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
