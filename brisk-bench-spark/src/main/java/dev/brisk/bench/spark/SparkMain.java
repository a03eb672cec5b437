package dev.brisk.bench.spark;

import dev.brisk.bench.ServerProcess;

/** The harness's {@code spark} server: {@code SparkMain <port> <statsPort>}, run as a {@link ServerProcess}. */
public final class SparkMain {
    private SparkMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: SparkMain <port> <statsPort>");
            System.exit(2);
        }
        ServerProcess.run("spark", new SparkServer(), Integer.parseInt(args[0]), Integer.parseInt(args[1]), null);
    }
}
