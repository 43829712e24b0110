package dwd.adapters.k8s.tls;

import dwd.application.port.out.ApiFailure.Kind;
import java.net.Socket;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertPathValidatorException.BasicReason;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import javax.security.auth.x500.X500Principal;

/**
 * The client's check of a server's certificate, as the kubeconfig's trust and the client's host-name
 * rule make it, that says in dwd's words why a certificate is refused ({@link CertificateRefused}):
 * signed by no authority the kubeconfig trusts, out of its validity (with the dates), or for another
 * host (with the names). The checks themselves are the JDK's (the chain, against the kubeconfig's
 * authorities) and the HTTP client's (the host name, by the rule it applies after every handshake);
 * this class only runs the second during the handshake, where the certificate is at hand, and names
 * what failed.
 */
public final class ServerCertificateCheck extends X509ExtendedTrustManager {

    private final X509TrustManager trust;
    private final HostnameVerifier hostnames;
    private final Supplier<Instant> now;

    /**
     * @param trust     the kubeconfig's trust: its authorities, or none to check (insecure-skip-tls-verify)
     * @param hostnames the HTTP client's host-name rule
     */
    public ServerCertificateCheck(X509TrustManager trust, HostnameVerifier hostnames) {
        this(trust, hostnames, Instant::now);
    }

    ServerCertificateCheck(X509TrustManager trust, HostnameVerifier hostnames, Supplier<Instant> now) {
        this.trust = Objects.requireNonNull(trust, "trust");
        this.hostnames = Objects.requireNonNull(hostnames, "hostnames");
        this.now = Objects.requireNonNull(now, "now");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        String host = socket instanceof SSLSocket ssl && ssl.getHandshakeSession() != null
                ? ssl.getHandshakeSession().getPeerHost() : null;
        check(chain, host, () -> {
            if (trust instanceof X509ExtendedTrustManager extended) {
                extended.checkServerTrusted(chain, authType, socket);
            } else {
                trust.checkServerTrusted(chain, authType);
            }
        });
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        String host = engine != null && engine.getHandshakeSession() != null
                ? engine.getHandshakeSession().getPeerHost() : null;
        check(chain, host, () -> {
            if (trust instanceof X509ExtendedTrustManager extended) {
                extended.checkServerTrusted(chain, authType, engine);
            } else {
                trust.checkServerTrusted(chain, authType);
            }
        });
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, null, () -> trust.checkServerTrusted(chain, authType));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        trust.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        trust.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        trust.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return trust.getAcceptedIssuers();
    }

    /** A check of the chain that may throw. */
    @FunctionalInterface
    private interface ChainCheck {
        void run() throws CertificateException;
    }

    private void check(X509Certificate[] chain, String host, ChainCheck chainCheck) throws CertificateException {
        try {
            chainCheck.run();
        } catch (CertificateException refused) {
            throw named(chain, refused, now.get());
        }
        if (host != null && chain != null && chain.length > 0 && !hostnames.verify(host, new PresentedChain(chain, host))) {
            throw new CertificateRefused(Kind.CERTIFICATE_HOST_MISMATCH, "the server's certificate ("
                    + name(chain[0].getSubjectX500Principal()) + ") is for " + String.join(", ", namesOf(chain[0]))
                    + ", not for " + host + ", the host dwd connected to (the kubeconfig's server)", null);
        }
    }

    /** Why the chain was refused: a certificate out of its validity, or no path to a trusted authority. */
    static CertificateRefused named(X509Certificate[] chain, CertificateException refused, Instant now) {
        if (refused instanceof CertificateRefused alreadyNamed) {
            return alreadyNamed;
        }
        if (chain == null || chain.length == 0) {
            return new CertificateRefused(Kind.CERTIFICATE_NOT_TRUSTED, "the server presented no certificate", refused);
        }
        if (saysOutOfValidity(refused)) {
            for (int i = 0; i < chain.length; i++) {
                X509Certificate certificate = chain[i];
                Instant from = certificate.getNotBefore().toInstant();
                Instant until = certificate.getNotAfter().toInstant();
                if (now.isBefore(from) || now.isAfter(until)) {
                    String whose = i == 0 ? "the server's certificate (" + name(certificate.getSubjectX500Principal()) + ")"
                            : "the certificate of its issuer " + name(certificate.getSubjectX500Principal());
                    String when = now.isAfter(until) ? "expired at " + until : "is not valid before " + from;
                    // No "now" in the message: it stays the same text while the problem lasts, so it is logged once.
                    return new CertificateRefused(Kind.CERTIFICATE_EXPIRED, whose + " " + when + " (valid from " + from
                            + " to " + until + ")", refused);
                }
            }
        }
        return new CertificateRefused(Kind.CERTIFICATE_NOT_TRUSTED, "the server's certificate ("
                + name(chain[0].getSubjectX500Principal()) + ", issued by " + name(chain[chain.length - 1].getIssuerX500Principal())
                + ") is not signed by a certificate authority the kubeconfig trusts (certificate-authority-data)",
                refused);
    }

    /** Whether the JDK refused the chain for a certificate's validity dates. */
    private static boolean saysOutOfValidity(Throwable refused) {
        for (Throwable cause = refused; cause != null; cause = cause.getCause()) {
            if (cause instanceof CertificateExpiredException || cause instanceof CertificateNotYetValidException) {
                return true;
            }
            if (cause instanceof CertPathValidatorException invalid
                    && (invalid.getReason() == BasicReason.EXPIRED || invalid.getReason() == BasicReason.NOT_YET_VALID)) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    /** The certificate's DNS names and IP addresses (its subject alternative names), or its subject when it has none. */
    static List<String> namesOf(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
            if (alternatives != null) {
                for (List<?> alternative : alternatives) {
                    // 2: dNSName, 7: iPAddress (RFC 5280's GeneralName tags).
                    if (alternative.size() == 2 && (Integer.valueOf(2).equals(alternative.get(0))
                            || Integer.valueOf(7).equals(alternative.get(0)))) {
                        names.add(String.valueOf(alternative.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException unreadable) {
            // named by its subject below
        }
        return names.isEmpty() ? List.of("no host name (" + name(certificate.getSubjectX500Principal()) + ")") : names;
    }

    private static String name(X500Principal principal) {
        return principal.getName(X500Principal.RFC2253);
    }

    /**
     * The presented chain as the handshake's session would show it once the handshake is done: what
     * the HTTP client's host-name rule reads (the peer's certificates). It reads nothing else.
     */
    private record PresentedChain(X509Certificate[] chain, String host) implements SSLSession {

        @Override
        public java.security.cert.Certificate[] getPeerCertificates() {
            return chain.clone();
        }

        @Override
        public String getPeerHost() {
            return host;
        }

        @Override
        public int getPeerPort() {
            return -1;
        }

        @Override
        public byte[] getId() {
            return new byte[0];
        }

        @Override
        public javax.net.ssl.SSLSessionContext getSessionContext() {
            return null;
        }

        @Override
        public long getCreationTime() {
            return 0;
        }

        @Override
        public long getLastAccessedTime() {
            return 0;
        }

        @Override
        public void invalidate() {
        }

        @Override
        public boolean isValid() {
            return false;
        }

        @Override
        public void putValue(String name, Object value) {
        }

        @Override
        public Object getValue(String name) {
            return null;
        }

        @Override
        public void removeValue(String name) {
        }

        @Override
        public String[] getValueNames() {
            return new String[0];
        }

        @Override
        public java.security.cert.Certificate[] getLocalCertificates() {
            return null;
        }

        @Override
        public java.security.Principal getPeerPrincipal() {
            return chain[0].getSubjectX500Principal();
        }

        @Override
        public java.security.Principal getLocalPrincipal() {
            return null;
        }

        @Override
        public String getCipherSuite() {
            return "";
        }

        @Override
        public String getProtocol() {
            return "";
        }

        @Override
        public int getPacketBufferSize() {
            return 0;
        }

        @Override
        public int getApplicationBufferSize() {
            return 0;
        }
    }
}
