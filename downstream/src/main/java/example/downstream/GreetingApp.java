package example.downstream;

import dev.brisk.Brisk;
import dev.brisk.BriskConfig;
import dev.brisk.HttpException;
import dev.brisk.jackson.JacksonJsonCodec;
import java.util.Map;

/** A small app on the published API: a path parameter, a JSON answer through brisk-jackson, a 400. */
public final class GreetingApp {
    private GreetingApp() {
    }

    /** The routes, separate from {@link #main} so a test can start them on a free port. */
    public static void routes(BriskConfig cfg) {
        cfg.json(new JacksonJsonCodec());
        cfg.get("/greet/{name}", ctx -> {
            String name = ctx.pathParam("name");
            if (name.length() > 40) {
                throw new HttpException.BadRequest("name too long");
            }
            ctx.json(Map.of("greeting", "Hello, " + name));
        });
    }

    public static void main(String[] args) {
        Brisk.create(GreetingApp::routes).start().closeOnShutdown();
    }
}
