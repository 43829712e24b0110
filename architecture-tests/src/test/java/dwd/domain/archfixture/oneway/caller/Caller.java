package dwd.domain.archfixture.oneway.caller;

import dwd.domain.archfixture.oneway.callee.Callee;

/** Uses its sibling package, which does not use it back: no cycle. Analysed only in isolation. */
public final class Caller {

    public Callee callee() {
        return new Callee();
    }
}
