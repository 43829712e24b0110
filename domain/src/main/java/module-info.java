/** The rules and values of dwd: pure Java, no dependency but {@code java.base}. */
module dwd.domain {
    exports dwd.domain.dryrun;
    exports dwd.domain.status;
}
