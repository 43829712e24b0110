package dwd.domain.status;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * Timestamps as Go's {@code time.Parse(time.RFC3339, s)} reads them, which is what Kubernetes'
 * {@code metav1.Time} (and so kstatus) does. Java's ISO parsers accept more (a lower-case {@code t}
 * or {@code z}, years of five digits) and less (a one-digit hour, a comma before the fraction, a
 * {@code +24:00} offset); a timestamp Go rejects must count as unreadable here too.
 *
 * <p>The grammar, as Go's layout parser applies it to {@code 2006-01-02T15:04:05Z07:00}: a year of
 * exactly four digits, {@code -}, a two-digit month 1–12, {@code -}, a two-digit day valid for the
 * month, {@code T}, an hour of one or two digits 0–23, {@code :}, two-digit minutes and seconds
 * 0–59, optionally {@code .} or {@code ,} and any number of digits (nine count), then {@code Z} or a
 * sign, two-digit hours up to 24, {@code :} and two-digit minutes up to 60; nothing after.
 */
final class GoTimestamps {

    private GoTimestamps() {
    }

    /** The instant, or empty when Go would reject the text. */
    static Optional<Instant> parseRfc3339(String text) {
        var cursor = new Cursor(text);
        try {
            int year = cursor.digits(4, 4);
            cursor.literal('-');
            int month = cursor.digits(2, 2);
            cursor.literal('-');
            int day = cursor.digits(2, 2);
            cursor.literal('T');
            int hour = cursor.digits(1, 2);
            cursor.literal(':');
            int minute = cursor.digits(2, 2);
            cursor.literal(':');
            int second = cursor.digits(2, 2);
            int nanos = cursor.fraction();
            int offsetSeconds = cursor.zone();
            cursor.end();
            if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59
                    || day < 1 || day > YearMonth.of(year, month).lengthOfMonth()) {
                return Optional.empty();
            }
            long epochSecond = LocalDateTime.of(year, month, day, hour, minute, second, nanos)
                    .toEpochSecond(ZoneOffset.UTC) - offsetSeconds;
            return Optional.of(Instant.ofEpochSecond(epochSecond, nanos));
        } catch (Rejected rejected) {
            return Optional.empty();
        }
    }

    private static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;

        Rejected() {
            super(null, null, false, false);
        }
    }

    private static final class Cursor {
        private final String text;
        private int position;

        Cursor(String text) {
            this.text = text;
        }

        private boolean isDigit(int at) {
            return at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9';
        }

        /** At least {@code min} and at most {@code max} digits. */
        int digits(int min, int max) throws Rejected {
            int value = 0;
            int count = 0;
            while (count < max && isDigit(position)) {
                value = value * 10 + (text.charAt(position++) - '0');
                count++;
            }
            if (count < min) {
                throw new Rejected();
            }
            return value;
        }

        void literal(char expected) throws Rejected {
            if (position >= text.length() || text.charAt(position) != expected) {
                throw new Rejected();
            }
            position++;
        }

        /** {@code .} or {@code ,} and at least one digit, else nothing; the first nine digits count. */
        int fraction() {
            char separator = position < text.length() ? text.charAt(position) : 0;
            if ((separator != '.' && separator != ',') || !isDigit(position + 1)) {
                return 0;
            }
            position++;
            int nanos = 0;
            int count = 0;
            while (isDigit(position)) {
                if (count < 9) {
                    nanos = nanos * 10 + (text.charAt(position) - '0');
                }
                count++;
                position++;
            }
            for (int scale = count; scale < 9; scale++) {
                nanos *= 10;
            }
            return nanos;
        }

        /** {@code Z}, or {@code ±hh:mm} with hours up to 24 and minutes up to 60 (Go's layout parser allows both). */
        int zone() throws Rejected {
            if (position < text.length() && text.charAt(position) == 'Z') {
                position++;
                return 0;
            }
            if (text.length() - position < 6 || text.charAt(position + 3) != ':') {
                throw new Rejected();
            }
            char sign = text.charAt(position++);
            int hours = digits(2, 2);
            literal(':');
            int minutes = digits(2, 2);
            if (hours > 24 || minutes > 60 || (sign != '+' && sign != '-')) {
                throw new Rejected();
            }
            int offset = (hours * 60 + minutes) * 60;
            return sign == '-' ? -offset : offset;
        }

        void end() throws Rejected {
            if (position != text.length()) {
                throw new Rejected();
            }
        }
    }
}
