/** The rules and values of dwd: pure Java, no dependency but {@code java.base}. */
module dwd.domain {
    exports dwd.domain.cluster;
    exports dwd.domain.comparison;
    exports dwd.domain.config;
    exports dwd.domain.dryrun;
    exports dwd.domain.gosyntax;
    exports dwd.domain.lease;
    exports dwd.domain.scaling;
    exports dwd.domain.selector;
    exports dwd.domain.status;
    exports dwd.domain.time;
    exports dwd.domain.weeding;
}
