package dwd.application.port.out;

import java.time.Duration;

/** Builds clients for shoot API servers from the kubeconfig secrets in the seed. */
public interface ShootClients {

    /**
     * A client for the shoot whose control plane lives in {@code namespace}, from the data key
     * {@code kubeconfig} of secret {@code secretName} there. Builds the client without calling it.
     *
     * @param callTimeout bound of each call (connect, read, whole call)
     * @throws ApiFailure NOT_FOUND when the secret is missing, BAD_INPUT when it has no usable
     *     kubeconfig, or the kind of the seed read's failure
     */
    ShootApi open(String namespace, String secretName, Duration callTimeout);
}
