package dwd.domain.scaling;

/** Which way a flow scales the dependent resources: down to protect the shoot, up once it is healthy again. */
public enum ScaleDirection {
    UP,
    DOWN
}
