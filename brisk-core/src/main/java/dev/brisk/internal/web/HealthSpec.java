package dev.brisk.internal.web;

import dev.brisk.HealthCheck;
import dev.brisk.HealthConfig;
import dev.brisk.internal.ops.NamedCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What {@link HealthConfig} collects; {@link AppConfig#health} turns it into two routes. Single-threaded. */
final class HealthSpec implements HealthConfig {
    String livenessPath = DEFAULT_LIVENESS_PATH;
    String readinessPath = DEFAULT_READINESS_PATH;
    Duration checkTimeout = DEFAULT_CHECK_TIMEOUT;
    boolean startNotReady;
    final List<NamedCheck> checks = new ArrayList<>();

    @Override
    public HealthConfig liveness(String path) {
        livenessPath = exactPath(path);
        return this;
    }

    @Override
    public HealthConfig readiness(String path) {
        readinessPath = exactPath(path);
        return this;
    }

    private static String exactPath(String path) {
        if (path == null || !path.startsWith("/") || path.indexOf('?') >= 0 || path.indexOf('{') >= 0
                || path.indexOf('*') >= 0) {
            throw new IllegalArgumentException("a health route needs an exact path: " + path);
        }
        return path;
    }

    @Override
    public HealthConfig check(String name, HealthCheck check) {
        if (name == null || name.isEmpty() || !name.chars().allMatch(HealthSpec::nameChar)) {
            // the name is written into JSON as is: keep it to characters that need no escaping
            throw new IllegalArgumentException("a check name is letters, digits, '_', '.', '-': " + name);
        }
        if (check == null) {
            throw new IllegalArgumentException("check " + name + " is null");
        }
        for (NamedCheck c : checks) {
            if (c.name().equals(name)) {
                throw new IllegalArgumentException("duplicate check: " + name);
            }
        }
        checks.add(new NamedCheck(name, check));
        return this;
    }

    private static boolean nameChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
                || c == '-';
    }

    @Override
    public HealthConfig checkTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("check timeout must be a positive duration: " + timeout);
        }
        checkTimeout = timeout;
        return this;
    }

    @Override
    public HealthConfig startNotReady() {
        startNotReady = true;
        return this;
    }
}
