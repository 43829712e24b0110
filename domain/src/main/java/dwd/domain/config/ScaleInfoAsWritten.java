package dwd.domain.config;

/** A {@code scaleUp} or {@code scaleDown} block as written; durations are raw Go duration strings. */
public record ScaleInfoAsWritten(Integer level, String initialDelay, String timeout) {
}
