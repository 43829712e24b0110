package dwd.domain.archfixture.downward;

/** Used by {@link Recipe} and its nested classes, and refers to no class of its package. */
public final class Ingredient {
}
