package dwd.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.bootstrap.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** Every {@code --help} reads well in an 80-column terminal: no word is cut at a line's end. */
class HelpTextTest {

    static Stream<String> commands() {
        List<String> names = new ArrayList<>();
        collect(new CommandLine(new DwdCommand()), names);
        return names.stream();
    }

    private static void collect(CommandLine command, List<String> names) {
        names.add(command.getCommandSpec().qualifiedName());
        command.getSubcommands().values().forEach(sub -> collect(sub, names));
    }

    private static String help(String qualifiedName, int width) {
        var out = new StringWriter();
        String[] args = Stream.concat(Arrays.stream(qualifiedName.split(" ")).skip(1), Stream.of("--help"))
                .toArray(String[]::new);
        String previous = System.getProperty("picocli.usage.width");
        System.setProperty("picocli.usage.width", Integer.toString(width));
        try {
            assertThat(Main.run(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), args)).isZero();
        } finally {
            if (previous == null) {
                System.clearProperty("picocli.usage.width");
            } else {
                System.setProperty("picocli.usage.width", previous);
            }
        }
        return out.toString();
    }

    private static Set<String> words(String text) {
        return new HashSet<>(Arrays.asList(text.trim().split("\\s+")));
    }

    @ParameterizedTest
    @MethodSource("commands")
    void noWordIsBrokenAt80Columns(String command) {
        String narrow = help(command, 80);
        Set<String> whole = words(help(command, 1000));
        List<String> fragments = words(narrow).stream().filter(word -> !whole.contains(word)).sorted().toList();
        assertThat(fragments).as("pieces of words cut at a line's end in '%s --help':%n%s", command, narrow).isEmpty();
        assertThat(narrow.lines()).as("lines of '%s --help'", command).allSatisfy(line -> assertThat(line.length())
                .isLessThanOrEqualTo(80));
    }
}
