package dwd.domain.config;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;

/**
 * Durations written the way Go writes them ({@code 30s}, {@code 1m40s}, {@code 500ms}, {@code 1.5h}), so that the
 * original dependency-watchdog's config files load unchanged.
 *
 * <p>{@link #parse} accepts exactly what Go's {@code time.ParseDuration} accepts: an optional sign, then one or more
 * decimal numbers each followed by a unit ({@code ns}, {@code us}, {@code µs}, {@code μs}, {@code ms}, {@code s},
 * {@code m}, {@code h}), or a bare {@code 0}. Values are Go's: whole nanoseconds within a signed 64-bit count.
 * {@link #format} writes what Go's {@code time.Duration.String()} writes, so {@code parse(format(d))} gives back
 * {@code d} for every duration in that range.
 */
public final class GoDuration {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final BigInteger BILLION = BigInteger.valueOf(NANOS_PER_SECOND);
    private static final BigInteger SIXTY = BigInteger.valueOf(60);

    /** 2^63 as an unsigned count of nanoseconds: the magnitude of Go's most negative duration. */
    private static final long MAX_MAGNITUDE = Long.MIN_VALUE;

    private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
            "ns", 1L,
            "us", 1_000L,
            "\u00B5s", 1_000L, // micro sign, what Go prints
            "\u03BCs", 1_000L, // Greek small letter mu, which Go also accepts
            "ms", 1_000_000L,
            "s", NANOS_PER_SECOND,
            "m", 60 * NANOS_PER_SECOND,
            "h", 3_600 * NANOS_PER_SECOND);

    static final String UNITS_HINT = "write a number followed by a unit (ns, us, ms, s, m, h), e.g. 30s, 1m40s or 500ms";

    private GoDuration() {
    }

    /**
     * Parses a Go duration string.
     *
     * @throws InvalidGoDuration when {@code text} is not one, with a message saying what is wrong and how to write it
     */
    public static Duration parse(String text) {
        if (text == null) {
            throw new InvalidGoDuration(null, "no duration given; " + UNITS_HINT);
        }
        if (text.isBlank()) {
            throw new InvalidGoDuration(text, "the text is " + (text.isEmpty() ? "empty" : "blank") + "; " + UNITS_HINT);
        }
        String rest = text;
        boolean negative = false;
        char first = rest.charAt(0);
        if (first == '-' || first == '+') {
            negative = first == '-';
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return Duration.ZERO;
        }
        if (rest.isEmpty()) {
            throw new InvalidGoDuration(text, "a sign must be followed by a number and a unit; " + UNITS_HINT);
        }
        long total = 0; // unsigned
        int position = 0;
        while (position < rest.length()) {
            char c = rest.charAt(position);
            if (c != '.' && !isDigit(c)) {
                throw new InvalidGoDuration(text, "expected a number at " + InvalidGoDuration.quote(rest.substring(position)) + whitespaceNote(text) + "; " + UNITS_HINT);
            }
            int numberStart = position;
            long whole = 0; // unsigned
            while (position < rest.length() && isDigit(rest.charAt(position))) {
                if (Long.compareUnsigned(whole, Long.divideUnsigned(MAX_MAGNITUDE, 10)) > 0) {
                    throw outOfRange(text);
                }
                whole = whole * 10 + (rest.charAt(position) - '0');
                if (Long.compareUnsigned(whole, MAX_MAGNITUDE) > 0) {
                    throw outOfRange(text);
                }
                position++;
            }
            boolean hasWholeDigits = position > numberStart;
            long fraction = 0; // unsigned; digits beyond 63 bits are dropped, as Go drops them
            double fractionScale = 1;
            boolean hasFractionDigits = false;
            if (position < rest.length() && rest.charAt(position) == '.') {
                position++;
                boolean fractionFull = false;
                while (position < rest.length() && isDigit(rest.charAt(position))) {
                    hasFractionDigits = true;
                    int digit = rest.charAt(position) - '0';
                    position++;
                    if (fractionFull) {
                        continue;
                    }
                    if (Long.compareUnsigned(fraction, Long.MAX_VALUE / 10) > 0) {
                        fractionFull = true;
                        continue;
                    }
                    long next = fraction * 10 + digit;
                    if (Long.compareUnsigned(next, MAX_MAGNITUDE) > 0) {
                        fractionFull = true;
                        continue;
                    }
                    fraction = next;
                    fractionScale *= 10;
                }
            }
            if (!hasWholeDigits && !hasFractionDigits) {
                throw new InvalidGoDuration(text, "a number needs at least one digit; " + UNITS_HINT);
            }
            String number = rest.substring(numberStart, position);
            int unitStart = position;
            while (position < rest.length() && rest.charAt(position) != '.' && !isDigit(rest.charAt(position))) {
                position++;
            }
            if (position == unitStart) {
                throw new InvalidGoDuration(text, "missing unit after " + number
                        + "; add one of ns, us, ms, s, m, h, e.g. " + number + "s (only a bare 0 may go without one)");
            }
            String unit = rest.substring(unitStart, position);
            Long unitNanos = NANOS_PER_UNIT.get(unit);
            if (unitNanos == null) {
                throw new InvalidGoDuration(text, "unknown unit " + InvalidGoDuration.quote(unit) + unitAdvice(unit));
            }
            if (Long.compareUnsigned(whole, Long.divideUnsigned(MAX_MAGNITUDE, unitNanos)) > 0) {
                throw outOfRange(text);
            }
            long value = whole * unitNanos;
            if (fraction != 0) {
                // Go computes the fractional part in float64 and truncates; doing the same keeps results identical.
                value += (long) (unsignedToDouble(fraction) * (unitNanos / fractionScale));
                if (Long.compareUnsigned(value, MAX_MAGNITUDE) > 0) {
                    throw outOfRange(text);
                }
            }
            if (Long.compareUnsigned(value, MAX_MAGNITUDE - total) > 0) {
                throw outOfRange(text);
            }
            total += value;
        }
        if (negative) {
            return Duration.ofNanos(-total); // -(2^63) wraps to itself, which is Go's most negative duration
        }
        if (total < 0) {
            throw outOfRange(text);
        }
        return Duration.ofNanos(total);
    }

    /**
     * Formats a duration as Go's {@code time.Duration.String()} does: {@code 1h0m0s}, {@code 1m40s}, {@code 300ms},
     * {@code 1.5µs}, {@code 0s}, {@code -2s}.
     *
     * <p>Durations beyond Go's 64-bit range are written in the same style, though {@link #parse} rejects them.
     */
    public static String format(Duration duration) {
        BigInteger nanos = BigInteger.valueOf(duration.getSeconds()).multiply(BILLION)
                .add(BigInteger.valueOf(duration.getNano()));
        boolean negative = nanos.signum() < 0;
        BigInteger magnitude = nanos.abs();
        StringBuilder out = new StringBuilder();
        if (negative) {
            out.append('-');
        }
        if (magnitude.compareTo(BILLION) < 0) {
            long small = magnitude.longValueExact();
            if (small == 0) {
                return "0s";
            }
            if (small < 1_000) {
                return out.append(small).append("ns").toString();
            }
            if (small < 1_000_000) {
                return appendDecimal(out, small, 3).append("\u00B5s").toString();
            }
            return appendDecimal(out, small, 6).append("ms").toString();
        }
        BigInteger[] secondsAndNanos = magnitude.divideAndRemainder(BILLION);
        BigInteger[] minutesAndSeconds = secondsAndNanos[0].divideAndRemainder(SIXTY);
        BigInteger[] hoursAndMinutes = minutesAndSeconds[0].divideAndRemainder(SIXTY);
        BigInteger hours = hoursAndMinutes[0];
        BigInteger minutes = hoursAndMinutes[1];
        if (hours.signum() > 0) {
            out.append(hours).append('h').append(minutes).append('m');
        } else if (minutes.signum() > 0) {
            out.append(minutes).append('m');
        }
        long seconds = minutesAndSeconds[1].longValueExact();
        long fractionNanos = secondsAndNanos[1].longValueExact();
        return appendDecimal(out, seconds * NANOS_PER_SECOND + fractionNanos, 9).append('s').toString();
    }

    /** Appends {@code value / 10^decimals} with the fraction's trailing zeros (and a bare point) left out. */
    private static StringBuilder appendDecimal(StringBuilder out, long value, int decimals) {
        long divisor = 1;
        for (int i = 0; i < decimals; i++) {
            divisor *= 10;
        }
        out.append(value / divisor);
        long fraction = value % divisor;
        if (fraction != 0) {
            String digits = Long.toString(divisor + fraction).substring(1); // keeps leading zeros
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            out.append('.').append(digits, 0, end);
        }
        return out;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static double unsignedToDouble(long value) {
        return value >= 0 ? value : ((value >>> 1) | (value & 1)) * 2.0;
    }

    private static String whitespaceNote(String text) {
        return text.chars().anyMatch(Character::isWhitespace) ? " (spaces are not allowed: write e.g. 30s or 1h30m, not 1h 30m)" : "";
    }

    private static String unitAdvice(String unit) {
        String trimmed = unit.strip();
        if (trimmed.equals("d")) {
            return "; Go durations have no day unit: write 24h for a day";
        }
        if (!trimmed.equals(unit)) {
            return "; spaces are not allowed: write e.g. 30s or 1h30m, not 1h 30m";
        }
        return "; use one of ns, us, ms, s, m, h, e.g. 30s, 1m40s or 500ms";
    }

    private static InvalidGoDuration outOfRange(String text) {
        return new InvalidGoDuration(text, "out of range; durations must lie between -2562047h47m16.854775808s and 2562047h47m16.854775807s");
    }
}
