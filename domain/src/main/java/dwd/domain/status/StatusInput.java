package dwd.domain.status;

/** The parts of an object the conditions-and-generations checks read; each check names the ones it needs. */
public enum StatusInput {
    /** {@code metadata.generation}. */
    GENERATION,
    /** The root {@code status.observedGeneration}. */
    OBSERVED_GENERATION,
    /** {@code status.conditions}: each entry's type, status, reason, message and observedGeneration. */
    CONDITIONS
}
