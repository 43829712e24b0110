package dwd.domain.archfixture.twoway;

/** The other half of the deliberate two-way reference. */
public final class Egg {

    public Chicken hatch() {
        return new Chicken();
    }
}
