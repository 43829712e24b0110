package dwd.domain.archfixture.downward;

import java.util.List;
import java.util.function.Supplier;

/**
 * Refers to {@link Ingredient}, which does not refer back; its nested and anonymous classes refer to it
 * and it to them, which is one file referring to itself. Analysed only in isolation.
 */
public final class Recipe {

    private final List<Step> steps = List.of(new Step(this));

    public Ingredient main() {
        Supplier<Ingredient> chosen = new Supplier<>() {
            @Override
            public Ingredient get() {
                return new Ingredient();
            }
        };
        return chosen.get();
    }

    public List<Step> steps() {
        return steps;
    }

    /** One step of its recipe. */
    public static final class Step {

        private final Recipe recipe;

        Step(Recipe recipe) {
            this.recipe = recipe;
        }

        public Ingredient uses() {
            return recipe.main();
        }
    }
}
