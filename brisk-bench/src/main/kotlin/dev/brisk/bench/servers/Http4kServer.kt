package dev.brisk.bench.servers

import dev.brisk.bench.BenchServer
import dev.brisk.bench.BenchTls
import dev.brisk.bench.Json
import java.nio.ByteBuffer
import org.http4k.core.MemoryBody
import org.http4k.core.Method.GET
import org.http4k.core.Method.POST
import org.http4k.core.Response
import org.http4k.core.Status.Companion.NO_CONTENT
import org.http4k.core.Status.Companion.OK
import org.http4k.routing.bind
import org.http4k.routing.path
import org.http4k.routing.routes
import org.http4k.server.Http4kServer
import org.http4k.server.SunHttp
import org.http4k.server.asServer

/**
 * http4k 6 as its quick start sets it up: `routes(...)` of `path bind method to handler`, served with
 * `asServer(SunHttp(port))` (the JDK's `com.sun.net.httpserver`, the one backend in http4k-core; the
 * Jetty and Netty backends are separate modules not available here). SunHttp binds every interface.
 */
class Http4kServer : BenchServer {
    private var server: Http4kServer? = null

    override fun start(port: Int, tls: BenchTls?) {
        if (tls != null) throw UnsupportedOperationException("no TLS in this bench server")
        val app = routes(
            "/hello" bind GET to { Response(OK).header("Content-Type", "text/plain").body("Hello, World!") },
            "/json" bind GET to { Response(OK).header("Content-Type", "application/json").body(MemoryBody(ByteBuffer.wrap(Json.hello()))) },
            "/users/{id}" bind GET to { req -> Response(OK).header("Content-Type", "text/plain").body(req.path("id")!!) },
            "/echo" bind POST to { req ->
                Response(OK).header("Content-Type", req.header("Content-Type") ?: "application/octet-stream")
                    .body(MemoryBody(req.body.payload))
            },
            "/consume" bind POST to { req ->
                req.body.payload
                Response(NO_CONTENT)
            },
            "/health" bind GET to { Response(OK).header("Content-Type", "text/plain").body("OK") },
        )
        server = app.asServer(SunHttp(port)).start()
    }

    override fun close() {
        server?.stop()
    }
}
