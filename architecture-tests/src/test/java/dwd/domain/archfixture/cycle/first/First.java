package dwd.domain.archfixture.cycle.first;

import dwd.domain.archfixture.cycle.second.Second;

/** A deliberate violation: this package and its sibling use each other. Analysed only in isolation. */
public final class First {

    public Second next() {
        return new Second();
    }
}
