package dwd.domain.archfixture.twoway;

/** Refers to {@link Ledger}'s nested {@code Line}, which refers back. */
public final class Auditor {

    public boolean approves(Ledger.Line line) {
        return line != null;
    }
}
