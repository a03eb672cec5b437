package dev.brisk.bench.servers

import dev.brisk.bench.BenchServer
import dev.brisk.bench.BenchTls
import dev.brisk.bench.Json
import io.ktor.http.ContentType
import io.ktor.http.HttpStatusCode
import io.ktor.http.content.ByteArrayContent
import io.ktor.server.application.Application
import io.ktor.server.cio.CIO
import io.ktor.server.engine.EmbeddedServer
import io.ktor.server.engine.embeddedServer
import io.ktor.server.netty.Netty
import io.ktor.server.request.contentType
import io.ktor.server.request.receive
import io.ktor.server.response.respond
import io.ktor.server.response.respondBytes
import io.ktor.server.response.respondText
import io.ktor.server.routing.get
import io.ktor.server.routing.post
import io.ktor.server.routing.routing

/**
 * Ktor 3 as its docs set it up: `embeddedServer(engine, port, host) { routing { ... } }`, on the CIO
 * engine (Ktor's own, coroutines over NIO) or the Netty engine, each with its default configuration.
 */
class KtorServer(private val engine: Engine) : BenchServer {
    /** Which Ktor engine serves. */
    enum class Engine { CIO, NETTY }

    private var server: EmbeddedServer<*, *>? = null

    override fun start(port: Int, tls: BenchTls?) {
        if (tls != null) throw UnsupportedOperationException("no TLS in this bench server")
        server = when (engine) {
            Engine.CIO -> embeddedServer(CIO, port = port, host = "127.0.0.1", module = Application::scenarios)
            Engine.NETTY -> embeddedServer(Netty, port = port, host = "127.0.0.1", module = Application::scenarios)
        }.start(wait = false)
    }

    override fun close() {
        server?.stop(0, 5_000)
    }
}

private fun Application.scenarios() {
    routing {
        get("/hello") { call.respondText("Hello, World!", ContentType.Text.Plain) }
        get("/json") { call.respondBytes(Json.hello(), ContentType.Application.Json) }
        get("/users/{id}") { call.respondText(call.parameters["id"]!!, ContentType.Text.Plain) }
        post("/echo") {
            val body = call.receive<ByteArray>()
            call.respond(ByteArrayContent(body, call.request.contentType()))
        }
        post("/consume") {
            call.receive<ByteArray>()
            call.respond(HttpStatusCode.NoContent)
        }
        get("/health") { call.respondText("OK", ContentType.Text.Plain) }
    }
}
