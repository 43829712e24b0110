package dwd.adapters.k8s.input;

import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.Reader;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.parser.ParserImpl;

/**
 * Jackson's YAML parser on SnakeYAML's parser reading through a {@link LinearStreamReader}, which
 * also tells the anchor of the current token's node: Jackson's {@code getObjectId()} does for
 * mappings and lists but not for scalar values.
 */
final class LinearYamlParser extends YAMLParser {

    LinearYamlParser(IOContext context, int parserFeatures, int yamlFeatures, ObjectCodec codec, Reader reader,
            LoaderOptions options) {
        super(context, parserFeatures, yamlFeatures, codec, reader, new ParserImpl(new LinearStreamReader(reader), options));
    }

    /** The anchor ({@code &name}) of the node the current token starts or is, or null. */
    String anchor() {
        return _lastEvent instanceof NodeEvent node && !(node instanceof AliasEvent) ? node.getAnchor() : null;
    }
}
