package dev.brisk.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.invoke.MethodHandles;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * brisk-core as a real module, checked with the jars as shipped: {@code target/brisk-examples.jar} and
 * {@code target/lib}, the layout {@code ./brisk example} runs. Those exist only after {@code package},
 * hence an integration test (Failsafe, run by {@code ./brisk test}); the test itself runs on the class
 * path, and puts on the module path what it checks.
 */
class ExampleModulePathIT {
    private static final Path TARGET = Path.of(System.getProperty("basedir", "."), "target");
    private static final Path APP_JAR = TARGET.resolve("brisk-examples.jar");
    private static final Path LIB = TARGET.resolve("lib");

    private static Path coreJar() throws IOException {
        assertThat(APP_JAR).as("the packaged app (run after the package phase)").isRegularFile();
        try (Stream<Path> jars = Files.list(LIB)) {
            List<Path> core = jars.filter(p -> p.getFileName().toString().startsWith("brisk-core-")).toList();
            assertThat(core).as("brisk-core in " + LIB).hasSize(1);
            return core.get(0);
        }
    }

    /** brisk-core's descriptor, failing clearly when the jar is an automatic module (no module-info). */
    private static ModuleDescriptor coreDescriptor(Path coreJar) {
        List<ModuleReference> found = new ArrayList<>(ModuleFinder.of(coreJar).findAll());
        assertThat(found).hasSize(1);
        ModuleDescriptor d = found.get(0).descriptor();
        assertThat(d.isAutomatic()).as(coreJar + " has no module-info.class (read as automatic module " + d.name() + ")")
                .isFalse();
        assertThat(d.name()).isEqualTo("dev.brisk");
        return d;
    }

    private static Set<String> internalPackages(ModuleDescriptor core) {
        Set<String> internal = new TreeSet<>(core.packages());
        internal.remove("dev.brisk");
        assertThat(internal).as("brisk-core's packages besides the API").isNotEmpty()
                .allMatch(p -> p.startsWith("dev.brisk.internal."));
        return internal;
    }

    @Test
    void coreExportsOnlyItsApiPackage() throws Exception {
        Path jar = coreJar();
        ModuleDescriptor descriptor = coreDescriptor(jar);
        assertThat(descriptor.exports()).extracting(ModuleDescriptor.Exports::source).containsExactly("dev.brisk");
        assertThat(descriptor.opens()).isEmpty();

        // loaded in a layer of its own, as on a module path: the classes are there but not reachable
        Configuration cf = ModuleLayer.boot().configuration()
                .resolve(ModuleFinder.of(jar), ModuleFinder.of(), Set.of("dev.brisk"));
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
        Module core = layer.findModule("dev.brisk").orElseThrow();
        assertThat(core.isExported("dev.brisk")).isTrue();
        for (String p : internalPackages(descriptor)) {
            assertThat(core.isExported(p)).as(p + " exported").isFalse();
            assertThat(core.isOpen(p)).as(p + " open").isFalse();
        }
        ClassLoader loader = layer.findLoader("dev.brisk");
        Class<?> api = Class.forName("dev.brisk.Brisk", false, loader);
        assertThat(MethodHandles.publicLookup().accessClass(api)).isSameAs(api);
        Class<?> internal = Class.forName(publicInternalClass(jar), false, loader);
        assertThat(internal.getModule()).isSameAs(core);
        assertThatThrownBy(() -> MethodHandles.publicLookup().accessClass(internal))
                .isInstanceOf(IllegalAccessException.class);
    }

    /** A public top-level class of an internal package, so that only the module can deny access to it. */
    private static String publicInternalClass(Path coreJar) throws IOException, ClassNotFoundException {
        try (JarFile jar = new JarFile(coreJar.toFile())) {
            for (String name : jar.stream().map(e -> e.getName()).sorted().toList()) {
                if (name.startsWith("dev/brisk/internal/") && name.endsWith(".class") && !name.contains("$")) {
                    String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                    // the class path copy of brisk-core (a dependency of this test) says whether it is public
                    if (Modifier.isPublic(Class.forName(className, false, ExampleModulePathIT.class.getClassLoader())
                            .getModifiers())) {
                        return className;
                    }
                }
            }
        }
        return fail("no public class in brisk-core's internal packages");
    }

    @Test
    void codeCompiledAgainstCoreOnTheModulePathCannotUseItsInternals(@TempDir Path dir) throws Exception {
        Path jar = coreJar();
        Set<String> internal = internalPackages(coreDescriptor(jar));
        Files.writeString(dir.resolve("module-info.java"), "module probe { requires dev.brisk; }\n");
        Path source = Files.createDirectories(dir.resolve("probe")).resolve("Probe.java");
        String api = "package probe;\nimport dev.brisk.Brisk;\n";
        Files.writeString(source, api + "class Probe { Brisk app; }\n");
        assertThat(javac(jar, dir)).as("the API alone compiles").isEmpty();

        StringBuilder imports = new StringBuilder(api);
        internal.forEach(p -> imports.append("import ").append(p).append(".*;\n"));
        Files.writeString(source, imports + "class Probe { Brisk app; }\n");
        String errors = javac(jar, dir);
        for (String p : internal) {
            assertThat(errors).contains("package " + p + " is not visible",
                    "(package " + p + " is declared in module dev.brisk, which does not export it)");
        }
    }

    /** Compiles {@code dir} (a module) against brisk-core on the module path; the errors, or "" when it compiled. */
    private static String javac(Path coreJar, Path dir) throws IOException {
        ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow(() -> new AssertionError("no javac in this JDK"));
        // an empty class path: javac would otherwise take this test's, brisk-core included
        Path emptyClassPath = Files.createDirectories(dir.resolve("empty"));
        List<String> args = new ArrayList<>(List.of("-d", dir.resolve("out").toString(), "-Xlint:none",
                "--module-path", coreJar.toString(), "--class-path", emptyClassPath.toString()));
        try (Stream<Path> files = Files.walk(dir)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            int rc = javac.run(ps, ps, args.toArray(String[]::new));
            String text = out.toString(StandardCharsets.UTF_8);
            if (rc == 0) {
                return "";
            }
            assertThat(text).as("javac failed with exit code " + rc + " and said nothing").isNotBlank();
            return text;
        }
    }

    private static HttpRequest get(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build();
    }

    @Test
    @Timeout(90)
    void exampleAppAnswersOnTheModulePath(@TempDir Path workDir) throws Exception {
        coreDescriptor(coreJar());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-p", APP_JAR + File.pathSeparator + LIB,
                "-m", "dev.brisk.examples/dev.brisk.examples.ExampleApp")
                // an empty working directory: no brisk.properties to pick up
                .directory(workDir.toFile())
                .redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("BRISK_"));
        pb.environment().put("BRISK_HOST", "127.0.0.1");
        pb.environment().put("BRISK_PORT", "0");
        Process app = pb.start();
        StringBuffer output = new StringBuffer();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
            Thread.ofVirtual().start(() -> {
                try {
                    for (String line; (line = out.readLine()) != null; ) {
                        output.append(line).append('\n');
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
            });
            // the first line names the bound port; a module that does not resolve ends the JVM instead
            Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+) ");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Matcher m = listening.matcher("");
            while (!m.reset(output.toString()).find()) {
                if (!app.isAlive() || System.nanoTime() > deadline) {
                    app.waitFor(2, TimeUnit.SECONDS); // let the reader take in the last of its output
                    fail("the example app did not start on the module path"
                            + (app.isAlive() ? " within 30 s" : " (exit code " + app.exitValue() + ")")
                            + "; its output:\n" + output);
                }
                Thread.sleep(20);
            }
            int port = Integer.parseInt(m.group(1));

            try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
                HttpResponse<String> hello = client.send(get(port, "/hello"), HttpResponse.BodyHandlers.ofString());
                assertThat(hello.statusCode()).isEqualTo(200);
                assertThat(hello.body()).isEqualTo("Hello, World!");
                // Jackson, itself a module, serializing for dev.brisk.jackson
                HttpResponse<String> json = client.send(get(port, "/json"), HttpResponse.BodyHandlers.ofString());
                assertThat(json.body()).isEqualTo("{\"message\":\"Hello, World!\"}");
            }
        } finally {
            app.destroy();
            if (!app.waitFor(10, TimeUnit.SECONDS)) {
                app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
