/** Use cases of dwd and the ports they drive or are driven through. Logging via System.Logger only. */
module dwd.application {
    requires transitive dwd.domain;

    exports dwd.application.check;
    exports dwd.application.comparison;
    exports dwd.application.health;
    exports dwd.application.leader;
    exports dwd.application.port.in;
    exports dwd.application.port.out;
    exports dwd.application.prober;
    exports dwd.application.runtime;
    exports dwd.application.shadow;
    exports dwd.application.weeder;
}
