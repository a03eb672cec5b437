/** Brisk's metrics and scaling signals as Micrometer meters; a metrics port. */
@SuppressWarnings("requires-transitive-automatic") // micrometer-core: a stable Automatic-Module-Name
module dev.brisk.micrometer {
    // transitive: BriskMeterBinder is a MeterBinder and takes Tags
    requires transitive dev.brisk;
    requires transitive micrometer.core;

    exports dev.brisk.micrometer;
}
