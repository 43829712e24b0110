package dwd.domain.testing;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Checks a property over many generated samples. The seed is fixed, so every run checks the same samples and a
 * failure reproduces; set {@code -Ddwd.property.seed=<n>} to explore other samples. A failure names the sample, the
 * try and the seed.
 */
public final class PropertyCheck {

    public static final int DEFAULT_TRIES = 1_000;
    private static final long DEFAULT_SEED = 0x5EED_D0D0L;

    /** Makes one sample from a source of randomness. */
    @FunctionalInterface
    public interface Generator<T> {
        T next(RandomGenerator random);
    }

    private PropertyCheck() {
    }

    public static <T> void forAll(Generator<T> generator, Consumer<? super T> property) {
        forAll(DEFAULT_TRIES, generator, property);
    }

    public static <T> void forAll(int tries, Generator<T> generator, Consumer<? super T> property) {
        long seed = Long.getLong("dwd.property.seed", DEFAULT_SEED);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 1; i <= tries; i++) {
            check(generator.next(random), property, "try " + i + " of " + tries + ", seed " + seed);
        }
    }

    /** Checks the property on hand-picked edge cases first, then on generated samples. */
    public static <T> void forAll(List<T> edgeCases, Generator<T> generator, Consumer<? super T> property) {
        edgeCases.forEach(sample -> check(sample, property, "edge case"));
        forAll(generator, property);
    }

    private static <T> void check(T sample, Consumer<? super T> property, String where) {
        try {
            property.accept(sample);
        } catch (AssertionError | RuntimeException failure) {
            throw new AssertionError("property failed (" + where + ") for sample: " + sample, failure);
        }
    }

    /** A random element of {@code choices}. */
    @SafeVarargs
    public static <T> T oneOf(RandomGenerator random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** A random string of up to {@code maxLength} characters drawn from {@code alphabet}. */
    public static String stringOf(RandomGenerator random, String alphabet, int maxLength) {
        int length = random.nextInt(maxLength + 1);
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
    }
}
