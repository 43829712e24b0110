package dwd.domain.archfixture.twoway;

/** A deliberate violation: it and {@link Egg}, of one package, refer to each other. Analysed only in isolation. */
public final class Chicken {

    public Egg lay() {
        return new Egg();
    }
}
