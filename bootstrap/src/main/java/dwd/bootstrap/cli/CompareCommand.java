package dwd.bootstrap.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dwd.bootstrap.comparison.BesideOriginal;
import dwd.bootstrap.comparison.ComparisonTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code dwd compare}: prints the comparison with the original from running roles' {@code /comparison} pages. */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Print how dwd in shadow mode compares with the original dependency-watchdog beside it.",
            "Reads the /comparison page of each dwd prober and weeder run with --dry-run and --compare-with-original"
                    + " (their metrics address; e.g. through kubectl port-forward) and prints, per shoot and overall,"
                    + " the episodes, the agreement and dwd's lead (p50, p99; positive: dwd ahead), then every"
                    + " disagreement with what each side did and why dwd decided as it did.",
            "Exit status: 0 printed; 1 a page could not be read; 2 usage error."})
public final class CompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "URL", description = "A role's metrics address, e.g."
            + " http://127.0.0.1:9643 (" + BesideOriginal.PAGE + " is added unless the URL names a path).")
    List<String> urls;

    @Option(names = "--all", description = "Also list the episodes where both acted alike.")
    boolean all;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s",
            converter = RoleOptions.GoDurationConverter.class, description = "How long to wait for each page (default: 10s).")
    Duration timeout;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        var pages = new ArrayList<ComparisonTable.Page>();
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
        for (String url : urls) {
            URI page = pageOf(url);
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(page).timeout(timeout).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    err.println("dwd compare: " + page + " answered " + response.statusCode()
                            + (response.statusCode() == 404 ? ": is the role running with --dry-run and --compare-with-original?" : ""));
                    return 1;
                }
                JsonNode json = new ObjectMapper().readTree(response.body());
                if (!json.has("episodes") || !json.has("role")) {
                    err.println("dwd compare: " + page + " is not a comparison page (no role, no episodes)");
                    return 1;
                }
                pages.add(new ComparisonTable.Page(page.toString(), json));
            } catch (IOException e) {
                err.println("dwd compare: cannot read " + page + ": " + e.getMessage());
                return 1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 1;
            } catch (IllegalArgumentException e) {
                err.println("dwd compare: " + url + " is not a URL: " + e.getMessage());
                return 1;
            }
        }
        out.print(ComparisonTable.render(pages, all));
        out.flush();
        return 0;
    }

    /** {@code http://host:port} → {@code http://host:port/comparison}; a URL with a path is taken as it is. */
    static URI pageOf(String url) {
        URI uri = URI.create(url.contains("://") ? url : "http://" + url);
        String path = uri.getPath();
        return path == null || path.isEmpty() || path.equals("/") ? uri.resolve(BesideOriginal.PAGE) : uri;
    }
}
