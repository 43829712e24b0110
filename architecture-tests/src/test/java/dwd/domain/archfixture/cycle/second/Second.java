package dwd.domain.archfixture.cycle.second;

import dwd.domain.archfixture.cycle.first.First;

/** The other half of the deliberate package cycle. */
public final class Second {

    public First previous() {
        return new First();
    }
}
