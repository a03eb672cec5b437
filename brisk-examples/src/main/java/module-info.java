/** The example app; ExampleModulePathIT runs it from this module on the module path. */
@SuppressWarnings("requires-automatic") // micrometer-registry-prometheus: a stable Automatic-Module-Name
module dev.brisk.examples {
    requires dev.brisk;
    requires dev.brisk.jackson;
    requires dev.brisk.micrometer;
    requires micrometer.registry.prometheus;
    // AllocationProbe: com.sun.management.ThreadMXBean
    requires jdk.management;
}
