package dwd.domain.archfixture.twoway;

/**
 * A deliberate violation through a nested class: its {@link Line} refers to {@link Auditor}, which refers
 * to the {@code Line}; both count as this file's. Analysed only in isolation.
 */
public final class Ledger {

    /** One entry, checked by its auditor. */
    public static final class Line {

        private final Auditor auditor = new Auditor();

        public boolean approved() {
            return auditor.approves(this);
        }
    }
}
