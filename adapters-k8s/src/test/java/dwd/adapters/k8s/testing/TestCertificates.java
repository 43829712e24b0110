package dwd.adapters.k8s.testing;

import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Certificate authorities and the serving certificates they sign, made for a test (EC P-256, fast to make). */
public final class TestCertificates {

    private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

    private TestCertificates() {
    }

    /** A serving certificate and its key, for a TLS server. */
    public record Serving(X509Certificate certificate, KeyPair keys, X509Certificate issuer) {

        /** Key managers that present this certificate (and its issuer). */
        public KeyManager[] keyManagers() {
            try {
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                char[] password = "test".toCharArray();
                store.setKeyEntry("serving", keys.getPrivate(), password, new X509Certificate[] {certificate, issuer});
                var factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                factory.init(store, password);
                return factory.getKeyManagers();
            } catch (GeneralSecurityException | java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A certificate authority that signs serving certificates. */
    public record Authority(X509Certificate certificate, KeyPair keys) {

        /** A CA named {@code CN=name}, valid from a day ago for ten years. */
        public static Authority create(String name) {
            try {
                KeyPair keys = keyPair();
                var subject = new X500Name("CN=" + name);
                Instant now = Instant.now();
                org.bouncycastle.cert.X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(), Date.from(now.minusSeconds(86_400)),
                        Date.from(now.plusSeconds(86_400L * 3650)), subject, keys.getPublic())
                        .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
                return new Authority(sign(builder, keys), keys);
            } catch (GeneralSecurityException | java.io.IOException | org.bouncycastle.operator.OperatorCreationException e) {
                throw new IllegalStateException(e);
            }
        }

        /**
         * A serving certificate {@code CN=commonName} for {@code hosts} (IP addresses and DNS names), valid
         * from {@code from} until {@code until}.
         */
        public Serving issue(String commonName, List<String> hosts, Instant from, Instant until) {
            try {
                KeyPair serverKeys = keyPair();
                List<GeneralName> names = new ArrayList<>();
                for (String host : hosts) {
                    names.add(host.matches("[0-9.]+|.*:.*")
                            ? new GeneralName(GeneralName.iPAddress, InetAddress.getByName(host).getHostAddress())
                            : new GeneralName(GeneralName.dNSName, host));
                }
                org.bouncycastle.cert.X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(certificate, serial(), Date.from(from), Date.from(until),
                        new X500Name("CN=" + commonName), serverKeys.getPublic())
                        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                        .addExtension(Extension.subjectAlternativeName, false,
                                new GeneralNames(names.toArray(GeneralName[]::new)));
                return new Serving(sign(builder, keys), serverKeys, certificate);
            } catch (GeneralSecurityException | java.io.IOException | org.bouncycastle.operator.OperatorCreationException e) {
                throw new IllegalStateException(e);
            }
        }

        /** A serving certificate for {@code hosts}, valid from a day ago for a year. */
        public Serving issue(String commonName, List<String> hosts) {
            Instant now = Instant.now();
            return issue(commonName, hosts, now.minusSeconds(86_400), now.plusSeconds(86_400L * 365));
        }

        /** The CA certificate as PEM, base64-encoded as a kubeconfig's {@code certificate-authority-data}. */
        public String kubeconfigData() {
            var pem = new StringWriter();
            try (var writer = new JcaPEMWriter(pem)) {
                writer.writeObject(certificate);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            return Base64.getEncoder().encodeToString(pem.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIALS.incrementAndGet());
    }

    private static X509Certificate sign(org.bouncycastle.cert.X509v3CertificateBuilder builder, KeyPair signer)
            throws GeneralSecurityException, org.bouncycastle.operator.OperatorCreationException {
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    }
}
