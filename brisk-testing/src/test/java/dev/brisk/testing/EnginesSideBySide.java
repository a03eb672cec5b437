package dev.brisk.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * On a nested class of a test that mostly waits on a server's clock (timeouts, data rates, drains): its
 * tests run once per {@link Engine}, with the engines' runs, and the tests in each, side by side (at most
 * four at once, see {@code junit-platform.properties}), while every other test class runs alone as
 * before. The class takes its engine in an {@code @Parameter Engine engine} field. For tests whose
 * waiting, not their CPU, makes them long: tests that compare timings against tight bounds under load,
 * or look at process-wide state (threads, file descriptors, log handlers), stay one after another.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Nested
@ParameterizedClass
@EnumSource(Engine.class)
@Execution(ExecutionMode.CONCURRENT)
public @interface EnginesSideBySide {
}
