package dwd.domain.comparison;

/** Who acted: dwd (a would-be action of shadow mode) or the original dependency-watchdog (a real write). */
public enum Side {
    DWD,
    ORIGINAL
}
