package dwd.adapters.k8s.tls;

import dwd.application.port.out.ApiFailure;
import java.security.cert.CertificateException;
import java.util.Objects;

/**
 * dwd refused the certificate a server presented, and says why in its own words: which of the
 * {@linkplain ApiFailure.Kind#isCertificateTrust() certificate kinds} it is, with the names and dates
 * that tell an operator what to fix. Thrown by {@link ServerCertificateCheck} during the TLS
 * handshake, so that it arrives as the cause of the handshake's failure.
 */
public final class CertificateRefused extends CertificateException {

    private static final long serialVersionUID = 1L;

    private final ApiFailure.Kind kind;

    CertificateRefused(ApiFailure.Kind kind, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        if (!kind.isCertificateTrust()) {
            throw new IllegalArgumentException(kind + " is not a certificate kind");
        }
        this.kind = kind;
    }

    public ApiFailure.Kind kind() {
        return kind;
    }
}
