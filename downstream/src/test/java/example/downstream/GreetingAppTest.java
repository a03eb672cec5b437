package example.downstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brisk.testing.BriskTestServer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class GreetingAppTest {

    @Test
    void greetsInJson() {
        try (BriskTestServer server = BriskTestServer.start(GreetingApp::routes)) {
            HttpResponse<String> r = server.get("/greet/Ada");
            assertEquals(200, r.statusCode());
            assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
            assertEquals("{\"greeting\":\"Hello, Ada\"}", r.body());
        }
    }

    @Test
    void refusesALongNameWith400() {
        try (BriskTestServer server = BriskTestServer.start(GreetingApp::routes)) {
            HttpResponse<String> r = server.get("/greet/" + "x".repeat(41));
            assertEquals(400, r.statusCode());
            // the message reaches the client; how it is wrapped is the error handling's business
            assertTrue(r.body().contains("name too long"), r.body());
        }
    }
}
