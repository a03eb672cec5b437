package dev.brisk.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brisk.testing.BriskTestServer;
import dev.brisk.testing.Engine;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code ctx.remoteAddress()} is the client socket's address and port on every engine, for each of a
 * burst of connections: on io_uring they come from a multishot accept, whose completions carry no
 * address, so the loop asks the kernel for each.
 */
@ParameterizedClass
@EnumSource(Engine.class)
class RemoteAddressTest {
    @Parameter
    Engine engine;

    @Test
    void everyConnectionOfABurstSeesItsOwnClientAddress() throws Exception {
        try (BriskTestServer t = Wire.start(engine, cfg -> cfg.get("/remote", ctx -> ctx.text(ctx.remoteAddress())))) {
            List<Socket> burst = new ArrayList<>();
            try {
                for (int i = 0; i < 40; i++) {
                    Socket s = new Socket("127.0.0.1", t.port());
                    s.setSoTimeout(10_000);
                    burst.add(s);
                }
                for (Socket s : burst) {
                    OutputStream out = s.getOutputStream();
                    out.write("GET /remote HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                for (Socket s : burst) {
                    InputStream in = s.getInputStream();
                    String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
                    assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith("\r\n\r\n127.0.0.1:" + s.getLocalPort());
                }
            } finally {
                for (Socket s : burst) {
                    s.close();
                }
            }
        }
    }
}
