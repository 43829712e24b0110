package dwd.domain.archfixture.oneway.callee;

/** Used by its sibling package, and uses nothing of dwd's. */
public final class Callee {
}
