package dwd.adapters.k8s.input;

import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Jackson's YAML factory with parsers that read through {@link LinearStreamReader}. Only
 * {@link #createParser(Reader)} is meant to be used: dwd hands every parser a reader that bounds
 * and checks the text.
 */
final class LinearYamlFactory extends YAMLFactory {

    private static final long serialVersionUID = 1L;

    /** Deeper than any Kubernetes object; SnakeYAML's default (50) is not (a CRD's schema can nest further). */
    static final int MAX_NESTING_DEPTH = 1000;

    LinearYamlFactory() {
        super(YAMLFactory.builder().loaderOptions(loaderOptions()));
        // The builder leaves the YAML parser features unset; the defaults read an empty value as null.
        _yamlParserFeatures = YAMLParser.Feature.collectDefaults();
    }

    private static LoaderOptions loaderOptions() {
        var options = new LoaderOptions();
        // The size of the whole input is bounded by the reader (TextInput), with a message of dwd's own.
        options.setCodePointLimit(Integer.MAX_VALUE);
        options.setNestingDepthLimit(MAX_NESTING_DEPTH);
        return options;
    }

    @Override
    protected YAMLParser _createParser(Reader reader, IOContext context) throws IOException {
        return new LinearYamlParser(context, _parserFeatures, _yamlParserFeatures, _objectCodec, reader, _loaderOptions);
    }
}
